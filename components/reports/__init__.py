"""Reports in the app: the shared report a link opens, and the Reports page's pieces."""
