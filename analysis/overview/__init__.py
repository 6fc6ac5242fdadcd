"""Domain overview, pure: a lookup → DataFrames (``frames``) → plotly figures (``charts``). The metric
cards are ``components.overview.widgets``."""
