"""Reusable page pieces: core/ (Streamlit infrastructure), common/ (pure helpers), one package per feature."""
