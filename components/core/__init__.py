"""Shared Streamlit infrastructure: data layer, connection, sidebar, pages, tables, writes, error panel."""
