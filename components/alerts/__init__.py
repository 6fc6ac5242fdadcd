"""The Alerts page's parts: ``frames`` (pure: the store's alerts and rule settings → what the page shows)
and ``widgets`` (the Streamlit pieces). Nothing is imported here, so importing ``frames`` stays pure."""
