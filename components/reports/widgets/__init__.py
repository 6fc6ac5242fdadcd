"""The Reports page's Streamlit parts: choosing a site and month (``choice``), the preview with its
downloads and comment (``preview``), scheduled sending (``schedule``), and share links and spreadsheet
feeds (``sharing``)."""
