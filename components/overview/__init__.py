"""Domain overview: lookup frames and charts (pure), metric cards (Streamlit)."""
