"""Keyword research, suggestions and tracked keywords: frames and charts (pure), and the pages'
Streamlit parts in ``widgets`` (the own-site picker, the tracked-keyword writes, one module per part)."""
