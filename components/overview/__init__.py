"""Domain overview: metric cards (Streamlit). Lookup frames and charts are ``analysis.overview``."""
