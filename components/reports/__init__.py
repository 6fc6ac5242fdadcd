"""Reports in the app: the Reports page's parts and the shared report a link opens (the report itself
is built in ``store.reports``, shared with the commands)."""
