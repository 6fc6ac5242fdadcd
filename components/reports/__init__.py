"""The Reports page's parts (the report itself is built in ``store.reports``, shared with the commands)."""
