"""Coach: the ten tabs (Streamlit). The advice rules, their frames and charts are ``analysis.coach``."""
