"""Delivery: what leaves the dashboard, exactly once. The outbox both kinds of delivery share
(``outbox``: claim a due row once across overlapping or killed runs, record the outcome, retry with
backoff, give up), the webhook sender of the alerts (``webhook``) and the mail sender of the digest
and the scheduled reports (``mail``). Each kind keeps its own rows (``alert_deliveries``,
``report_sends``). No Streamlit here.
"""
