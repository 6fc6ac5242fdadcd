"""Trust Map, site check, bulk DR, snippets, categories: the Trust Map's shared view and the Streamlit
parts of the Trust Map, Site check and Bulk DR pages (``widgets``). Frames and charts are
``analysis.research``."""
