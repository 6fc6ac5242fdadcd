"""Trust Map, site check, bulk DR, snippets, categories: frames and charts (pure), the Trust Map's
shared view, and the bulk DR checker's Streamlit parts (``widgets``)."""
