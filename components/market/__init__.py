"""The Market page's pieces: which domains to compare (``frames``), its figures (``charts``) and its
Streamlit parts (``widgets``). The numbers themselves come from ``analysis.market``."""
