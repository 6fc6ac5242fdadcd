"""The Opportunities page's pieces: its Streamlit parts are in ``widgets``; the list itself is
``services.opportunities`` and its numbers ``analysis.opportunities``."""
