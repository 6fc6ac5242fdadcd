"""Sending the digest has a deadline for the whole exchange with the mail server, not only for each
read: a server on 127.0.0.1 that greets one byte every tenth of a second (each read answered quickly,
the greeting never done) is cut off at the deadline and the digest says so in plain words. The run is
guarded by a generous outer limit, so code without the deadline fails the test instead of hanging it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from services.alerts.config import AlertConfig, AlertConfigError, EmailConfig
from services.alerts.mail import MailError, build_message, send_message
from tests.store.local_servers import trickling_server
from tests.store.test_delivery_deadlines import GUARD_S, guarded


def test_a_mail_server_that_trickles_its_greeting_is_cut_off_at_the_deadline() -> None:
    with trickling_server() as port:
        email = EmailConfig("127.0.0.1", port, "none", "digest@example.com", ("seo@example.com",))
        message = build_message("Digest", "text", "<p>html</p>", email)

        def send() -> MailError | list[str]:
            try:
                return send_message(message, email, timeout_s=5, deadline_s=1.0)
            except MailError as exc:
                return exc

        outcome, took = guarded(send)
    assert took < GUARD_S / 2
    assert isinstance(outcome, MailError), outcome
    assert outcome.reason == f"the mail server 127.0.0.1:{port} (none) did not finish within 1 s"


def test_the_deadline_is_a_setting_of_the_mail_section(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.toml"
    section = '[alerts.email]\nhost = "mail.lan"\nfrom = "d@example.com"\nto = "t@example.com"\n'
    secrets.write_text(section, encoding="utf-8")
    email = AlertConfig.load({}, (secrets,)).email
    assert email is not None and email.deadline_s == 120
    secrets.write_text(section + "deadline = 30\n", encoding="utf-8")
    email = AlertConfig.load({}, (secrets,)).email
    assert email is not None and email.deadline_s == 30
    secrets.write_text(section + "deadline = 0\n", encoding="utf-8")
    with pytest.raises(AlertConfigError, match="deadline"):
        AlertConfig.load({}, (secrets,))
