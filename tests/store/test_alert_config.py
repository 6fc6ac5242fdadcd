"""Alert settings from the environment and the secrets files; secrets never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.alerts.config import AlertConfig, AlertConfigError, EmailConfig

WEBHOOK = "https://hooks.example.com/services/T000/B000/s3cr3t-token"
PASSWORD = "mail-pa55word"


def _secrets(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_nothing_configured_means_no_channel_and_the_local_dashboard(tmp_path: Path) -> None:
    config = AlertConfig.load({}, (tmp_path / "missing.toml",))
    assert config.channels == ()
    assert config.webhook_for_display is None
    assert config.dashboard_url == "http://localhost:8501"
    assert config.webhook_format == "slack"
    assert config.email is None


def test_secrets_give_the_webhook_and_mail_server_and_the_environment_wins(tmp_path: Path) -> None:
    home = _secrets(
        tmp_path, "home.toml", '[alerts]\nformat = "json"\ndashboard_url = "https://home.example"\n'
    )
    project = _secrets(
        tmp_path,
        "project.toml",
        f"""
[alerts]
webhook_url = "{WEBHOOK}"
dashboard_url = "https://dash.example.com/"

[alerts.email]
host = "smtp.example.com"
user = "digest"
password = "{PASSWORD}"
from = "Dashboard <digest@example.com>"
to = "team@example.com"
""",
    )
    config = AlertConfig.load({}, (home, project))
    assert config.channels == ("webhook",)
    assert config.webhook_url == WEBHOOK
    assert config.webhook_format == "json"  # from the home file: the project's file does not say
    assert config.dashboard_url == "https://dash.example.com"
    assert config.email == EmailConfig(
        "smtp.example.com",
        587,
        "starttls",
        "Dashboard <digest@example.com>",
        ("team@example.com",),
        "digest",
        PASSWORD,
    )
    environ = {
        "DASHBOARD_ALERT_WEBHOOK": "http://127.0.0.1:9/hook/other",
        "DASHBOARD_URL": "http://intranet:8501",
    }
    overridden = AlertConfig.load(environ, (home, project))
    assert overridden.webhook_url == "http://127.0.0.1:9/hook/other"
    assert overridden.dashboard_url == "http://intranet:8501"


def test_the_webhook_url_and_the_mail_password_never_show(tmp_path: Path) -> None:
    project = _secrets(
        tmp_path,
        "s.toml",
        f'[alerts]\nwebhook_url = "{WEBHOOK}"\n[alerts.email]\nhost = "mx"\ntls = "ssl"\n'
        f'password = "{PASSWORD}"\n'
        'from = "a@example.com"\nto = ["b@example.com", "c@example.com"]\n',
    )
    config = AlertConfig.load({}, (project,))
    assert config.webhook_for_display == "https://hooks.example.com/…"
    assert config.email is not None and config.email.port == 465
    for shown in (repr(config), str(config), repr(config.email), config.email.server_for_display):
        assert "s3cr3t" not in shown and PASSWORD not in shown


@pytest.mark.parametrize(
    ("section", "complaint"),
    [
        ('[alerts]\nwebhook_url = "ftp://hooks.example.com/s3cr3t"', "http:// or https://"),
        ('[alerts]\nformat = "xml"', 'format is "slack" or "json"'),
        ('[alerts.email]\nfrom = "a@example.com"\nto = "b@example.com"', "needs host"),
        ('[alerts.email]\nhost = "mx"\nto = "b@example.com"', "needs from"),
        ('[alerts.email]\nhost = "mx"\nfrom = "a@example.com"', "needs to"),
        ('[alerts.email]\nhost = "mx"\ntls = "maybe"\nfrom = "a"\nto = "b"', "tls is"),
        ('[alerts.email]\nhost = "mx"\nport = 99999\nfrom = "a"\nto = "b"', "port must be"),
    ],
)
def test_settings_that_cannot_work_are_named_without_their_secret(
    tmp_path: Path, section: str, complaint: str
) -> None:
    with pytest.raises(AlertConfigError) as raised:
        AlertConfig.load({}, (_secrets(tmp_path, "s.toml", section + f'\npassword_note = "{PASSWORD}"\n'),))
    assert complaint in str(raised.value)
    assert "s3cr3t" not in str(raised.value) and PASSWORD not in str(raised.value)
