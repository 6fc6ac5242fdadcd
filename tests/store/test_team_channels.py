"""The team's channels carry the deployment's own account only, end to end through ``python -m store``.

The store holds two accounts' alerts: the team's (the key in the environment or secrets, as the
snapshot job reads it) and an editor's own key's, recorded by browsing and found by the app's "Check
now" while it still queued them for the webhook. ``alerts`` and ``digest`` run against real receivers
on 127.0.0.1 (an HTTP webhook receiver, aiosmtpd): only the team's account arrives, the editor's alerts
stay in the store for the app, and without a deployment key nothing is sent at all, with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from client.settings import key_fingerprint
from services.alerts.evaluate import evaluate_alerts
from services.cli import main
from store import HistoryStore
from tests.store.alert_history import OWN, day, lookup, record_lookups, watch_own
from tests.store.local_servers import smtp_server, webhook_receiver

TEAM_KEY = "vdr_live_team0123456789abcdef"
EDITOR_KEY = "vdr_live_editor9876543210fedcba"
TEAM = key_fingerprint(TEAM_KEY)
EDITOR = key_fingerprint(EDITOR_KEY)
EDITOR_SITE = "tinyblog.net"
AS_OF = day(8)
MAIL = """
[alerts.email]
host = "127.0.0.1"
port = {port}
tls = "none"
from = "Authority Dashboard <digest@example.com>"
to = "seo@example.com"
"""


@pytest.fixture
def url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A history with a DR drop in each account: the team's example.com (recorded by the job) and the
    editor's tinyblog.net (recorded by browsing, its alert queued for the webhook by the app)."""
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here until a test writes one
    for name in ("DASHBOARD_ALERT_WEBHOOK", "VERIFIEDDR_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    database = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    with HistoryStore.open(database) as store:
        watch_own(store, TEAM)
        record_lookups(store, TEAM, [lookup(OWN, dr=dr) for dr in [50] * 7 + [47, 47]])
        store.watchlist.watch(EDITOR, "domain", EDITOR_SITE)
        drops = [lookup(EDITOR_SITE, dr=dr) for dr in [30] * 7 + [24, 24]]
        store.snapshots.seed(
            EDITOR, lookups=[(day(n), answer) for n, answer in enumerate(drops)], source="browsing"
        )
        found = evaluate_alerts(store, EDITOR, as_of=AS_OF, days=9, channels=("webhook",))
        assert found.new == 1
    return database


def _secrets(tmp_path: Path, text: str) -> None:
    folder = tmp_path / ".streamlit"
    folder.mkdir(exist_ok=True)
    (folder / "secrets.toml").write_text(text, encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_webhook_carries_only_the_deployments_account(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", TEAM_KEY)
    with webhook_receiver() as receiver:
        monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", receiver.url("/services/hook"))
        code, out, err = run(
            capsys, "alerts", "--database-url", url, "--as-of", AS_OF.isoformat(), "--days", "9"
        )
    assert code == 0, err
    bodies = [request.body.decode() for request in receiver.requests]
    assert len(bodies) == 1 and OWN in bodies[0], bodies
    assert not any(EDITOR_SITE in body for body in bodies)
    assert out.strip().endswith("webhook: delivered 1, waiting 0, rejected 0")
    assert TEAM_KEY not in out + err and EDITOR_KEY not in out + err
    with HistoryStore.open(url) as store:  # the editor's alert is still there, for the app
        assert store.alerts.entries(EDITOR)["subject"].tolist() == [EDITOR_SITE]
        assert store.alerts.entries(TEAM)["delivery"].tolist() == ["sent"]


def test_the_digest_covers_only_the_deployments_account(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with smtp_server() as box:
        _secrets(tmp_path, f'api_key = "{TEAM_KEY}"\n' + MAIL.format(port=box.port))  # the key from secrets
        code, _out, err = run(capsys, "digest", "--database-url", url, "--as-of", AS_OF.isoformat())
    assert code == 0, err
    [(_sender, _to, message)] = box.envelopes
    text = message.get_body(("plain",)).get_content()
    assert f"Sites: {OWN}" in text and f"- {OWN}: DR 50 → 47 (-3)" in text  # the team's section
    assert EDITOR_SITE not in text and EDITOR[:8] not in text
    assert TEAM_KEY not in message.as_string()


def test_without_a_deployment_key_nothing_is_sent_and_it_says_why(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with webhook_receiver() as receiver, smtp_server() as box:
        monkeypatch.setenv("DASHBOARD_ALERT_WEBHOOK", receiver.url("/services/hook"))
        _secrets(tmp_path, MAIL.format(port=box.port))
        args = ("--database-url", url, "--as-of", AS_OF.isoformat())
        alerts_code, out, alerts_err = run(capsys, "alerts", *args, "--days", "9")
        digest_code, _out, digest_err = run(capsys, "digest", *args)
    assert receiver.requests == [] and box.envelopes == []
    assert alerts_code == 2 and digest_code == 2
    assert "no API key is configured for this deployment" in alerts_err
    assert "no API key is configured for this deployment" in digest_err
    assert out.strip().endswith("webhook: nothing sent (no API key for this deployment)")
    with HistoryStore.open(url) as store:  # evaluation still ran: each account's alerts are in the app
        assert store.alerts.entries(TEAM)["subject"].tolist() == [OWN]
        assert store.alerts.entries(EDITOR)["subject"].tolist() == [EDITOR_SITE]
