"""The Reports page's Streamlit pieces: sharing (links and spreadsheet feeds)."""
