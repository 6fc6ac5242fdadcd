"""Growth pages: discovery and link exchanges: the exchange writes (Streamlit). Frames and charts are
``analysis.growth``."""
