"""Keyword shaping, pure: one report, several reports compared, suggestions, tracked keywords."""
