"""Activity: the audit log of write attempts (who changed what, and what became of it).

``frames`` is pure (no Streamlit): store rows → the table and its filters, in plain words;
``widgets`` holds the Activity page's Streamlit pieces (the filters and the table).
"""
