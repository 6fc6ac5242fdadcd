"""Pure figures the app, the reports and the commands all draw: history frames, history and market
charts, chart markers and the shared palette. No Streamlit, no database: DataFrames in, DataFrames or
plotly figures out.
"""
