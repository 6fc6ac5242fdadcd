"""Shared Streamlit infrastructure: data layer, connection, sidebar, page registry, shared inputs,
tables, tabs, writes, error panel."""
