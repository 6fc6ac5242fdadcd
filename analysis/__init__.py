"""Pure analysis, no I/O: stored rows and API models → DataFrames → plotly figures (``figures``); the
market figures (``market``: CTR curve, visibility, share of voice, churn, DR spread, markers); the
app's deep-link schema (``links``).

No Streamlit, no SQLAlchemy, no HTTP: the same inputs give the same outputs, so every page, report,
feed, command and alert that shows a figure computes it here.
"""
