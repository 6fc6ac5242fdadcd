"""The revisions, oldest first: 0001 (watchlist and domain lookups), 0002 (Trust Maps, keywords)."""
