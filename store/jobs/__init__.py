"""Jobs that fill the history without anyone having the app open: ``snapshot`` (the daily refresh)."""
