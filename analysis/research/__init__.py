"""Trust Map, site check, bulk DR, snippets and categories, pure: API models → DataFrames (``frames``,
one module per page) → plotly figures (``charts``). The pages' Streamlit pieces are
``components.research``."""
