"""Keyword research, suggestions and tracked keywords, pure: API models → DataFrames (``frames``, one
module per view) → plotly figures (``charts``). The pages' Streamlit pieces are
``components.keywords.widgets``."""
