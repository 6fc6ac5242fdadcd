"""Keyword research, suggestions and tracked keywords: the pages' Streamlit parts in ``widgets`` (the
own-site picker, the tracked-keyword writes, one module per part). Frames and charts are
``analysis.keywords``."""
