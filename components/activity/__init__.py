"""Activity: the audit log of write attempts (who changed what, and what became of it).

``widgets`` holds the Activity page's Streamlit pieces (the filters and the table); the rows become
the table and its filters, in plain words, in ``analysis.activity.frames`` (pure).
"""
