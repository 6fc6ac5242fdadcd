"""Growth pages: discovery and link exchanges: frames and charts (pure), the exchange writes (Streamlit)."""
