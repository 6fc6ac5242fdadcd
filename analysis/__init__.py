"""Pure analysis, no I/O: stored rows and API models → DataFrames → plotly figures. Each feature's
frames and charts (``overview``, ``research``, ``keywords``, ``growth``, ``sites``, ``activity``); the
coach's rules, frames and charts (``coach``); the History and Market pages' frames and charts
(``figures``); the market figures (``market``: CTR curve, visibility, share of voice, churn, DR
spread, markers); words for numbers, days and errors (``wording``, ``error_wording``); text made safe
for Markdown (``text``); typed frames (``shaping``); the app's deep-link schema (``links``).

No Streamlit, no SQLAlchemy, no HTTP: the same inputs give the same outputs, so every page, report,
feed, command and alert that shows a figure computes it here.
"""
