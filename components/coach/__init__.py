"""Coach: the advice rules and their frames and charts (pure), the ten tabs (Streamlit)."""
