"""Delivery: what leaves the dashboard, exactly once. The webhook sender of the alerts and its outbox
(``webhook``) and the mail sender of the digest and the scheduled reports (``mail``). No Streamlit
here.
"""
