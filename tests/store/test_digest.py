"""The weekly digest: what it says about a constructed week, and that it arrives by real SMTP.

The mail server is aiosmtpd on 127.0.0.1 (with a login, no TLS); the history is recorded through the
store's own ``snapshots.seed`` and the alerts written as evaluation writes them. SQLite only: the digest only
reads, through queries that the store's own tests run on both databases.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pandas as pd
import pytest

from analysis.wording import period_words
from client.settings import key_fingerprint
from services.alerts.config import AlertConfig, EmailConfig
from services.alerts.digest import (
    AccountDigest,
    Digest,
    KeywordMove,
    domain_moves,
    keyword_moves,
    render_html,
)
from services.alerts.digest_text import render_text
from services.jobs.digest import account_digest, run_digest
from store import HistoryStore
from tests.store.alert_samples import add_alert
from tests.store.local_servers import free_port, self_signed_certificate, smtp_server
from tests.store.samples import OTHER_ACCOUNT, keyword_report, lookup, tracked

REPO_ROOT = Path(__file__).resolve().parents[2]
#: The deployment's key: the digest covers its account only (``OTHER_ACCOUNT``'s alerts stay in the app).
TEAM_KEY = "vdr_live_digest0123456789abcdef"
ACCOUNT = key_fingerprint(TEAM_KEY)
AS_OF = date(2026, 11, 22)
DASHBOARD = "https://dash.example.com"
PASSWORD = "smtp-pa55word"
DROP_TITLE = "DR of stripe.com dropped by 6 points"
HOSTILE_TITLE = "Keyword <script>alert(1)</script> left the top 10"
DOMAIN_LINK = f"{DASHBOARD}/history?history_domain=stripe.com&history_tab=Domain+trends"
#: aiosmtpd warns about a login without TLS: the test server is on 127.0.0.1 and the password a dummy.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


@pytest.fixture
def week(tmp_path: Path) -> Iterator[HistoryStore]:
    """Two weeks of history: stripe.com falls 80 → 74 this week, quiet.com stays; a keyword drops."""
    store = HistoryStore.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    store.watchlist.watch(ACCOUNT, "domain", "stripe.com", origin="own")
    store.watchlist.watch(ACCOUNT, "domain", "quiet.com")
    days = [AS_OF - timedelta(days=n) for n in range(13, -1, -1)]
    dr = {day: 80 if day < date(2026, 11, 18) else 74 for day in days}
    store.snapshots.seed(
        ACCOUNT,
        lookups=[(day, lookup("stripe.com", dr=dr[day])) for day in days]
        + [(day, lookup("quiet.com", dr=40)) for day in days],
        trackeds=[
            (day, tracked("stripe-com", {"crm software": 7 if day < AS_OF else 14, "email marketing": 15}))
            for day in days
        ],
    )
    store.snapshots.seed(OTHER_ACCOUNT, lookups=[(AS_OF, lookup("other.com", dr=30))])
    add_alert(store, ACCOUNT, DROP_TITLE, day=date(2026, 11, 18), before="80", after="74")
    add_alert(
        store,
        ACCOUNT,
        HOSTILE_TITLE,
        rule="keyword_left_top10",
        subject="crm software",
        chart="keyword",
        before="7",
        after="14",
    )
    add_alert(store, ACCOUNT, "An old alert from last week", day=date(2026, 11, 10), subject="old.com")
    add_alert(store, OTHER_ACCOUNT, "Verification lost for other.com", day=AS_OF, subject="other.com")
    yield store
    store.close()


def _mail_config(port: int, password: str = PASSWORD, tls: str = "none") -> AlertConfig:
    email = EmailConfig(
        "127.0.0.1",
        port,
        tls,  # type: ignore[arg-type]
        "Authority Dashboard <digest@example.com>",
        ("seo@example.com", "lead@example.com"),
        "digest",
        password,
    )
    return AlertConfig(None, "slack", DASHBOARD, email)


def test_the_digest_arrives_with_a_text_and_an_html_part_for_every_recipient(week: HistoryStore) -> None:
    lines: list[str] = []
    with smtp_server("digest", PASSWORD) as box:
        code = run_digest(
            week,
            _mail_config(box.port),
            team=ACCOUNT,
            as_of=AS_OF,
            days=7,
            output=None,
            progress=lines.append,
        )
    assert code == 0, lines
    assert box.logins == ["digest"]
    [(mail_from, recipients, message)] = box.envelopes
    assert mail_from == "digest@example.com"
    assert recipients == ["seo@example.com", "lead@example.com"]
    assert message["From"] == "Authority Dashboard <digest@example.com>"
    assert message["To"] == "seo@example.com, lead@example.com"
    assert message["Subject"] == "Authority Dashboard: weekly digest, 16–22 Nov 2026 — 2 alerts"
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]

    assert DROP_TITLE in text and HOSTILE_TITLE in text
    assert "An old alert from last week" not in text  # before the period
    assert DOMAIN_LINK in text and f"{DASHBOARD}/alerts" in text
    assert "stripe.com: DR 80 → 74 (-6)" in text
    assert "quiet.com" not in text  # did not move
    assert '"crm software" (stripe.com): position 7 → 14, down 7' in text
    assert "email marketing" not in text
    assert "Sites: stripe.com" in text  # the deployment's account only: another key's stays in the app
    assert "Account ffeeddcc" not in text and "Verification lost for other.com" not in text

    assert DROP_TITLE in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert DOMAIN_LINK.replace("&", "&amp;") in html
    assert "80 → 74 (-6)" in html
    assert PASSWORD not in message.as_string() and ACCOUNT not in message.as_string()
    assert lines[-1] == "digest: sent to 2 recipients via 127.0.0.1:" + str(box.port) + " (none)"


def test_a_refused_login_is_reported_without_the_password(week: HistoryStore) -> None:
    lines: list[str] = []
    with smtp_server("digest", PASSWORD) as box:
        config = _mail_config(box.port, password="wrong-s3cret")
        code = run_digest(week, config, team=ACCOUNT, as_of=AS_OF, days=7, output=None, progress=lines.append)
    assert code == 1
    assert box.envelopes == []
    assert "refused the user name or password" in lines[-1]
    assert all("wrong-s3cret" not in line for line in lines)


def test_starttls_checks_the_certificate_before_the_password_is_sent(
    week: HistoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    certificate = self_signed_certificate(tmp_path)
    with smtp_server("digest", PASSWORD, certificate=certificate) as box:
        untrusted: list[str] = []
        config = _mail_config(box.port, tls="starttls")
        code = run_digest(
            week, config, team=ACCOUNT, as_of=AS_OF, days=7, output=None, progress=untrusted.append
        )
        assert code == 1
        assert "the certificate of the mail server 127.0.0.1" in untrusted[-1]
        assert box.logins == [] and box.envelopes == []
        monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))  # now the certificate is trusted
        trusted: list[str] = []
        code = run_digest(
            week, config, team=ACCOUNT, as_of=AS_OF, days=7, output=None, progress=trusted.append
        )
    assert code == 0, trusted
    assert box.logins == ["digest"]
    assert len(box.envelopes) == 1


def test_an_unreachable_mail_server_is_a_failure_in_plain_words(week: HistoryStore) -> None:
    lines: list[str] = []
    code = run_digest(
        week, _mail_config(free_port()), team=ACCOUNT, as_of=AS_OF, days=7, output=None, progress=lines.append
    )
    assert code == 1
    assert lines[-1].startswith("The digest could not be sent: the mail server 127.0.0.1:")
    assert "refused the connection" in lines[-1]


def test_output_writes_the_html_without_a_mail_server(week: HistoryStore, tmp_path: Path) -> None:
    target = tmp_path / "out" / "digest.html"
    lines: list[str] = []
    code = run_digest(
        week, AlertConfig(), team=ACCOUNT, as_of=AS_OF, days=7, output=target, progress=lines.append
    )
    assert code == 0
    html = target.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert DROP_TITLE in html and "&lt;script&gt;" in html and "<script>" not in html
    assert "http://localhost:8501/history?history_domain=stripe.com&amp;history_tab=Domain+trends" in html
    assert lines[-1] == f"digest: written to {target}"
    # The tracked keyword's site is named by its domain, as people know it, not by the slug it is kept under.
    assert 'vertical-align:top">stripe.com</td>' in html and "stripe-com" not in html


def test_without_mail_settings_or_a_file_it_says_where_to_configure_and_exits_2(week: HistoryStore) -> None:
    lines: list[str] = []
    assert (
        run_digest(week, AlertConfig(), team=ACCOUNT, as_of=AS_OF, days=7, output=None, progress=lines.append)
        == 2
    )
    assert "[alerts.email]" in lines[0] and "--output" in lines[0]


def _frame(rows: list[tuple[str, str, int | None]], columns: tuple[str, ...]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=list(columns))
    frame["day"] = pd.to_datetime(frame["day"])
    return frame


def test_moves_are_measured_from_the_day_before_the_period_and_sorted_biggest_first() -> None:
    start, end = date(2026, 11, 16), AS_OF
    positions = _frame(
        [
            ("s", "up", "2026-11-15", 20),
            ("s", "up", "2026-11-22", 11),
            ("s", "noise", "2026-11-15", 5),
            ("s", "noise", "2026-11-19", 6),
            ("s", "noise", "2026-11-22", 5),
            ("s", "gone", "2026-11-16", 3),
            ("s", "gone", "2026-11-22", None),
            ("s", "future", "2026-11-15", 1),
            ("s", "future", "2026-11-23", 50),
        ],
        ("site", "keyword", "day", "position"),
    )
    assert keyword_moves(positions, start, end) == [
        KeywordMove("gone", "s", 3, None),
        KeywordMove("up", "s", 20, 11),
    ]
    domains = pd.DataFrame(
        {
            "domain": ["a.com", "a.com", "b.com", "b.com"],
            "day": pd.to_datetime(["2026-11-10", "2026-11-20", "2026-11-15", "2026-11-22"]),
            "dr": pd.array([50, 49, 30, 30], dtype="Int64"),
            "true_dr": pd.array([45, 45, 28, 20], dtype="Int64"),
            "referring_domains": pd.array([100, 90, 10, pd.NA], dtype="Int64"),
        }
    )
    moves = domain_moves(domains, start, end)
    assert [move.domain for move in moves] == ["b.com", "a.com"]
    assert moves[0].true_dr == (28, 20) and moves[0].referring_domains == (10, None)


def test_period_words_read_like_a_calendar() -> None:
    assert period_words(date(2026, 11, 16), date(2026, 11, 22)) == "16–22 Nov 2026"
    assert period_words(date(2026, 11, 28), date(2026, 12, 4)) == "28 Nov – 4 Dec 2026"
    assert period_words(date(2026, 12, 28), date(2027, 1, 3)) == "28 Dec 2026 – 3 Jan 2027"


def test_the_cron_line_sends_the_digest_configured_in_secrets_and_never_prints_the_password(
    week: HistoryStore, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (home / ".streamlit").mkdir(parents=True)
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO_ROOT), "VERIFIEDDR_API_KEY": TEAM_KEY}
    for name in ("DASHBOARD_DATABASE_URL", "DASHBOARD_ALERT_WEBHOOK", "DASHBOARD_URL"):
        env.pop(name, None)
    command = [sys.executable, "-m", "store", "digest", "--database-url", week.url, "--as-of", "2026-11-22"]

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command, *extra], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )

    preview = run("--output", str(tmp_path / "digest.html"))
    assert preview.returncode == 0, preview.stderr
    assert DROP_TITLE in (tmp_path / "digest.html").read_text(encoding="utf-8")
    with smtp_server("digest", PASSWORD) as box:
        (home / ".streamlit" / "secrets.toml").write_text(
            f'[alerts]\ndashboard_url = "{DASHBOARD}"\n'
            f'[alerts.email]\nhost = "127.0.0.1"\nport = {box.port}\n'
            f'tls = "none"\nuser = "digest"\npassword = "{PASSWORD}"\nfrom = "digest@example.com"\n'
            'to = "seo@example.com"\n',
            encoding="utf-8",
        )
        sent = run()
    assert sent.returncode == 0, sent.stderr
    [(_sender, recipients, message)] = box.envelopes
    assert recipients == ["seo@example.com"] and DOMAIN_LINK in message.get_body(("plain",)).get_content()
    assert "sent to 1 recipient" in sent.stderr
    for output in (preview, sent):
        assert PASSWORD not in output.stdout + output.stderr


def test_only_real_moves_are_listed_and_a_number_that_held_says_so() -> None:
    start, end = date(2026, 11, 16), AS_OF
    rows = {  # domain: (DR, TrueDR, referring domains) before the period, then at its end
        "moz.com": ((91, 95, 21_166), (91, 94, 21_201)),  # a point of TrueDR, 0.2 % of links: noise
        "semrush.com": ((91, 91, 32_096), (91, 91, 32_101)),
        "unknown.com": ((50, None, 100), (50, 45, 100)),  # TrueDR not given before: not a change
        "real.com": ((40, 38, 300), (43, 38, 300)),
        "grew.com": ((60, 58, 1_000), (60, 58, 1_030)),  # 3 % more referring domains
    }
    domains = pd.DataFrame(
        [
            (domain, day, *values)
            for domain, pair in rows.items()
            for day, values in zip(("2026-11-15", "2026-11-22"), pair, strict=True)
        ],
        columns=["domain", "day", "dr", "true_dr", "referring_domains"],
    ).astype({"dr": "Int64", "true_dr": "Int64", "referring_domains": "Int64"})
    domains["day"] = pd.to_datetime(domains["day"])
    moves = domain_moves(domains, start, end)
    assert [move.domain for move in moves] == ["real.com", "grew.com"]
    digest = Digest(start, end, DASHBOARD, [AccountDigest("Sites: real.com", pd.DataFrame(), moves)])
    text = render_text(digest)
    assert "91 → 91" not in text and "moz.com" not in text
    assert (
        "- grew.com: DR 60, no change; TrueDR 58, no change; referring domains 1,000 → 1,030 (+30, +3.0 %)"
        in text
    )
    assert "DR 40 → 43 (+3)" in text
    quiet = render_text(Digest(start, end, DASHBOARD, [AccountDigest("Sites: moz.com", pd.DataFrame())]))
    assert "No watched domain moved: DR and TrueDR by less than 2 points" in quiet


def test_a_keyword_tracked_and_watched_for_one_site_is_one_series_not_a_move_between_them(
    tmp_path: Path,
) -> None:
    store = HistoryStore.open(f"sqlite:///{tmp_path / 'history.sqlite3'}")
    store.watchlist.watch(ACCOUNT, "domain", "stripe.com", origin="own")
    store.watchlist.watch(ACCOUNT, "keyword", "crm software", site="stripe.com")
    start = date(2026, 11, 16)
    for n in range(1, 6):  # watched before the period: not in the top 10 (the report knows no deeper)
        day = start - timedelta(days=n)
        store.snapshots.record_keyword_report(
            ACCOUNT, keyword_report("crm software", "stripe.com", None), day, "job", "stripe.com"
        )
        store.snapshots.record_keyword_report(
            ACCOUNT, keyword_report("email marketing", "stripe.com", 8), day, "job", "stripe.com"
        )
    for n in range(7):  # tracked through the period: #14 every day, so it did not move
        store.snapshots.record_tracked(
            ACCOUNT, tracked("stripe-com", {"crm software": 14}), start + timedelta(days=n), "job"
        )
    store.snapshots.record_keyword_report(
        ACCOUNT, keyword_report("email marketing", "stripe.com", 5), AS_OF, "job", "stripe.com"
    )
    part = account_digest(store, ACCOUNT, start, AS_OF)
    store.close()
    # Before, the watched "not in the top 10" and the tracked #14 made "crm software entered the results".
    assert part.keyword_moves == [KeywordMove("email marketing", "stripe.com", 8, 5)]


def test_the_periods_notes_and_googles_updates_are_in_the_digest_as_plain_text(week: HistoryStore) -> None:
    from store.notes import Note

    week.notes.add_note(
        ACCOUNT, Note(date(2026, 11, 19), "Pricing <b>relaunched</b>", subject="stripe.com"), "ann"
    )
    week.notes.add_note(ACCOUNT, Note(date(2026, 11, 1), "Too early for this digest"), "ann")
    part = account_digest(week, ACCOUNT, AS_OF - timedelta(days=6), AS_OF)
    assert part.notes == [("2026-11-19", "Pricing <b>relaunched</b> (stripe.com)")]
    text = render_text(Digest(AS_OF - timedelta(days=6), AS_OF, DASHBOARD, [part]))
    assert "Notes on the charts\n- 2026-11-19: Pricing <b>relaunched</b> (stripe.com)" in text
    html = render_html(Digest(AS_OF - timedelta(days=6), AS_OF, DASHBOARD, [part]))
    assert "Pricing &lt;b&gt;relaunched&lt;/b&gt; (stripe.com)" in html and "<b>relaunched" not in html
    # A week inside a shipped Google update names it.
    june = account_digest(week, ACCOUNT, date(2025, 7, 1), date(2025, 7, 7))
    assert ("2025-06-30 – 2025-07-17", "June 2025 core update (Google)") in june.notes
