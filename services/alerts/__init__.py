"""Alerts: the rules run on the recorded history (``rules``, ``link_rules``, ``market_rules``), their
evaluation over a range of days (``evaluate``), and their delivery: the webhook's outbox
(``webhook``), the weekly digest (``digest``, ``digest_text``) by mail (``mail``), with the channels'
settings (``config``) and the messages' words (``messages``). What is stored lives in
``store.alerts``. No Streamlit here.
"""
