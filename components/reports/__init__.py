"""The Reports section: a site's monthly report in the app, and its schedule."""
