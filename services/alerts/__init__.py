"""Alerts: the rules run on the recorded history (``rules``, ``link_rules``, ``market_rules``), their
evaluation over a range of days (``evaluate``), the weekly digest's content (``digest``,
``digest_text``), the channels' settings (``config``) and the messages' words (``messages``). Sending
them (the webhook, the mail) lives in ``services.delivery``; what is stored in ``store.alerts``. No
Streamlit here.
"""
