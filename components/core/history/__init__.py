"""The app's side of the history store: one shared store per database, the cached source every History,
Market and Reports widget reads through, free history from the reads pages make, and alerts (the
sidebar's count, the Alerts page, the demo's alerts)."""
