"""Reusable UI pieces and the cached data layer; pages import from here, never from httpx."""
