"""A digest login over ``tls = "none"`` sends the password in clear: refused unless the mail server is this
machine or ``allow_plain_login = true`` says the network is trusted.

The mail server is a real aiosmtpd that requires a login and accepts it without TLS, listening on an
address of this machine that is not loopback (as a mail server elsewhere on the network would be), so
a client that logs in there really sends the password over the wire.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from services.alerts.config import AlertConfig, AlertConfigError, EmailConfig
from services.alerts.mail import MailError, build_message, is_loopback, send_message
from tests.store.local_servers import own_address, smtp_server

PASSWORD = "smtp-pa55word"
#: aiosmtpd warns about a login without TLS: that is what these tests are about (the password a dummy).
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


@pytest.fixture
def address() -> str:
    found = own_address()
    if found is None:
        pytest.skip("this machine has no address besides loopback")
    return found


def _email(host: str, port: int, *, allow: bool = False) -> EmailConfig:
    return EmailConfig(
        host, port, "none", "digest@example.com", ("seo@example.com",), "digest", PASSWORD, allow
    )


def _send(email: EmailConfig) -> list[str]:
    return send_message(build_message("Digest", "text", "<p>html</p>", email), email, timeout_s=10)


def test_a_plain_login_to_a_server_on_the_network_is_refused_before_the_password_is_sent(
    address: str,
) -> None:
    with smtp_server("digest", PASSWORD, host=address) as box:
        with pytest.raises(MailError) as refused:
            _send(_email(address, box.port))
    assert box.logins == [] and box.envelopes == []  # the password never went
    reason = refused.value.reason
    assert "would send the password unencrypted" in reason
    assert 'tls = "starttls"' in reason and "allow_plain_login = true" in reason
    assert PASSWORD not in reason


def test_allow_plain_login_lets_a_trusted_network_log_in_in_clear(address: str) -> None:
    with smtp_server("digest", PASSWORD, host=address) as box:
        assert _send(_email(address, box.port, allow=True)) == []
    assert box.logins == ["digest"] and len(box.envelopes) == 1


def test_a_plain_login_to_this_machine_needs_no_setting() -> None:
    with smtp_server("digest", PASSWORD) as box:
        assert _send(_email("127.0.0.1", box.port)) == []
    assert box.logins == ["digest"]


def test_only_a_host_written_as_this_machine_counts_as_loopback() -> None:
    assert all(
        is_loopback(host) for host in ("localhost", "LOCALHOST.", "127.0.0.1", "127.1.2.3", "::1", "[::1]")
    )
    # A name is never looked up: one that resolves to loopback today may not tomorrow.
    assert not any(is_loopback(host) for host in ("mail.example.com", "192.0.2.2", "127.example.com", "vm"))


def test_allow_plain_login_is_read_from_the_secrets_and_must_be_true_or_false(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.toml"
    section = (
        '[alerts.email]\nhost = "mail.lan"\ntls = "none"\nfrom = "d@example.com"\nto = "t@example.com"\n'
    )
    secrets.write_text(section + "allow_plain_login = true\n", encoding="utf-8")
    email = AlertConfig.load({}, (secrets,)).email
    assert email is not None and email.allow_plain_login is True
    secrets.write_text(section, encoding="utf-8")
    email = AlertConfig.load({}, (secrets,)).email
    assert email is not None and email.allow_plain_login is False
    secrets.write_text(section + 'allow_plain_login = "yes"\n', encoding="utf-8")
    with pytest.raises(AlertConfigError, match="allow_plain_login"):
        AlertConfig.load({}, (secrets,))
