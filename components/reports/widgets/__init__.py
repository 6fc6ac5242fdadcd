"""Streamlit pieces of the Reports page: ``schedule`` (a site's monthly report schedule and its review)."""
