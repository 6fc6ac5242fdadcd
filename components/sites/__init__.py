"""My sites, site details, AI visibility, Search Console, monitor: the picker and the writes (Streamlit).
Frames and charts are ``analysis.sites``."""
