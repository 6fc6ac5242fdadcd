"""The one read path: the cached data layer (in-process cache, then the shared Redis level, then the
client), what it writes down beside its answers, what processes tell each other, and which service and
key a session talks to."""
