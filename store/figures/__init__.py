"""Pure figures the app and the commands both draw: history frames, history and market charts, chart
markers and the shared palette. No Streamlit, no database: DataFrames in, DataFrames or plotly
figures out. They live under ``store`` so the report job can draw what the History and Market pages
draw without the store importing ``components``.
"""
