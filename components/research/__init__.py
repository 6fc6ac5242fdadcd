"""Trust Map, site check, bulk DR, snippets, categories: frames and charts (pure), the bulk run, and
the Streamlit parts of the Trust Map and Site check pages (``trust_map``, ``site_check``)."""
