"""Scheduled monthly reports against a real SMTP server (aiosmtpd on 127.0.0.1), on SQLite and
PostgreSQL: each site's report arrives once per period, with its PDF, through overlapping runs and a run
killed while sending; review-first holds it until approved; a mail server that refuses or cannot be
reached leaves it pending with the reason in plain words; every build and send is audited.

The reports are built by a small builder of the tests' own that prints real PDFs through the reports'
own printer (WeasyPrint), so these tests do not depend on the report's content; one test at the end
builds the real report from recorded history.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from client.settings import key_fingerprint
from services.alerts.config import EmailConfig
from services.jobs.reports import ReportsRun, reports_pass, run_reports
from services.reports.document import EmptyPeriod
from services.reports.render import html_to_pdf
from store import HistoryStore
from store.reports.period import Period, last_month
from store.reports.schedules import SENDS, BadSchedule, check_recipients
from tests.polling import until
from tests.store.local_servers import free_port, smtp_server, trickling_server

REPO_ROOT = Path(__file__).resolve().parents[2]
TEAM_KEY = "vdr_live_reports0123456789abcdef"
ACCOUNT = key_fingerprint(TEAM_KEY)
TODAY = date(2026, 11, 3)
OCTOBER = last_month(TODAY)
LATER = datetime(2026, 11, 3, 7, 0, tzinfo=UTC)
EDITOR = "ann@acme.com"
PASSWORD = "smtp-pa55word"
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


class Builder:
    """Prints a one-page PDF naming the site and period; counts the reports it built."""

    def __init__(self, before: Callable[[], None] | None = None) -> None:
        self.built: list[tuple[str, Period]] = []
        self.before = before
        self._lock = threading.Lock()

    def __call__(self, account: str, site: str, period: Period) -> bytes:
        if self.before is not None:
            self.before()
        if site == "empty.com":
            raise EmptyPeriod(f"nothing about {site} is recorded in {period.words}")
        with self._lock:  # one PDF at a time: the tests' threads share this builder
            self.built.append((site, period))
            return html_to_pdf(f"<h1>{site}</h1><p>{period.words}</p>")


def _email(port: int, **changes: object) -> EmailConfig:
    options: dict[str, object] = {"user": "reports", "password": PASSWORD, "deadline_s": 30.0} | changes
    return EmailConfig(
        "127.0.0.1",
        port,
        "none",
        "Acme Reports <reports@example.com>",
        ("digest-only@example.com",),
        **options,  # type: ignore[arg-type]
    )


def _pass(store: HistoryStore, email: EmailConfig, builder: Builder, **options: object) -> ReportsRun:
    """One run of the job as at ``now`` (default ``LATER``, the morning of the 3rd)."""
    options.setdefault("now", LATER)
    return reports_pass(
        store,
        email,
        account=ACCOUNT,
        today=TODAY,
        build_pdf=builder,
        **options,  # type: ignore[arg-type]
    )


def _subjects(box: object) -> list[str]:
    return sorted(str(message["Subject"]) for _from, _to, message in box.envelopes)  # type: ignore[attr-defined]


def _audit(store: HistoryStore) -> list[list[str]]:
    rows = store.audit.events(ACCOUNT).iloc[::-1]
    return rows[["person", "operation", "target", "outcome"]].values.tolist()


def test_each_sites_report_arrives_once_with_its_pdf_and_every_step_is_audited(store: HistoryStore) -> None:
    store.report_schedules.set_report_schedule(
        ACCOUNT, "stripe.com", "seo@client.com\nboss@client.com", False, EDITOR
    )
    store.report_schedules.set_report_schedule(ACCOUNT, "Acme.com", ["lead@acme.com"], False, EDITOR)
    builder = Builder()
    with smtp_server("reports", PASSWORD) as box:
        first = _pass(store, _email(box.port), builder)
        again = _pass(store, _email(box.port), builder, now=LATER + timedelta(days=1))
    assert first.summary == "reports: built 2, sent 2, waiting for review 0, failed 0"
    assert again.summary == "reports: built 0, sent 0, waiting for review 0, failed 0"
    assert builder.built == [("acme.com", OCTOBER), ("stripe.com", OCTOBER)]
    assert _subjects(box) == ["acme.com — October 2026 report", "stripe.com — October 2026 report"]
    [stripe] = [m for m in box.envelopes if "stripe.com" in str(m[2]["Subject"])]
    mail_from, recipients, message = stripe
    assert (mail_from, recipients) == ("reports@example.com", ["seo@client.com", "boss@client.com"])
    assert message["To"] == "seo@client.com, boss@client.com"
    assert "October 2026 report for stripe.com" in message.get_body(("plain",)).get_content()
    [attachment] = list(message.iter_attachments())
    assert attachment.get_filename() == "report-stripe.com-2026-10.pdf"
    assert attachment.get_content().startswith(b"%PDF")
    sends = store.report_schedules.report_sends(ACCOUNT)
    assert [(s.site, s.state, s.attempts) for s in sends] == [
        ("acme.com", "sent", 1),
        ("stripe.com", "sent", 1),
    ]
    assert [s.words for s in sends] == ["acme.com, October 2026: sent", "stripe.com, October 2026: sent"]
    assert _audit(store) == [
        ["the reports job", "build_report", "acme.com, October 2026", "done"],
        ["the reports job", "build_report", "stripe.com, October 2026", "done"],
        ["the reports job", "send_report", "acme.com, October 2026", "done"],
        ["the reports job", "send_report", "stripe.com, October 2026", "done"],
    ]


def test_two_runs_at_once_send_each_sites_report_exactly_once(store: HistoryStore) -> None:
    sites = ["a.com", "b.com", "c.com"]
    for site in sites:
        store.report_schedules.set_report_schedule(ACCOUNT, site, f"seo@{site}", False, EDITOR)
    # Both runs build a.com's report at the same moment (neither has inserted its row yet): only one
    # row can land, and only that one is mailed.
    both_building = threading.Barrier(2, timeout=60)
    first_build: set[int] = set()

    def meet() -> None:
        me = threading.get_ident()
        if me not in first_build:
            first_build.add(me)
            both_building.wait()

    builder = Builder(before=meet)
    runs: list[ReportsRun] = []
    with smtp_server("reports", PASSWORD) as box:

        def run() -> None:
            runs.append(_pass(store, _email(box.port), builder))

        threads = [threading.Thread(target=run) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert len(runs) == 2
    assert _subjects(box) == [f"{site} — October 2026 report" for site in sites]
    assert sum(run.sent for run in runs) == 3
    assert sum(run.built for run in runs) == 3  # a.com was built twice, but inserted (and sent) once
    assert [(s.site, s.state) for s in store.report_schedules.report_sends(ACCOUNT)] == [
        (site, "sent") for site in sites
    ]


def test_a_run_killed_while_sending_is_taken_over_once_its_claim_runs_out(
    store: HistoryStore, tmp_path: Path
) -> None:
    store.report_schedules.set_report_schedule(ACCOUNT, "stripe.com", "seo@client.com", False, EDITOR)
    builder = Builder()
    with trickling_server() as never_done:  # a mail server that never finishes its greeting
        # Built here (pending); the command below only has to send it.
        _pass(store, _email(never_done, deadline_s=0.5), builder, claim_for=timedelta(minutes=1))
        with store.engine.begin() as conn:  # due again at once: the failed attempt's backoff skipped
            conn.execute(SENDS.update().values(claimed_until=None, last_error=None))
        home = tmp_path / "home"
        (home / ".streamlit").mkdir(parents=True)
        (home / ".streamlit" / "secrets.toml").write_text(
            f'[alerts.email]\nhost = "127.0.0.1"\nport = {never_done}\ntls = "none"\n'
            'from = "reports@example.com"\nto = "digest@example.com"\ndeadline = 600\n',
            encoding="utf-8",
        )
        env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO_ROOT), "VERIFIEDDR_API_KEY": TEAM_KEY}
        env.pop("DASHBOARD_DATABASE_URL", None)
        command = [
            sys.executable,
            "-m",
            "store",
            "reports",
            "--database-url",
            store.url,
            "--as-of",
            "2026-11-03",
        ]
        job = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert until(lambda: _state(store) == "sending", within_s=60), "the command never claimed it"
        finally:
            job.send_signal(signal.SIGKILL)
            job.wait(timeout=30)
    claimed_until = _claimed_until(store)
    with smtp_server("reports", PASSWORD) as box:
        early = _pass(store, _email(box.port), builder, now=claimed_until - timedelta(seconds=1))
        assert (early.sent, box.envelopes) == (0, [])  # the claim still holds
        taken = _pass(store, _email(box.port), builder, now=claimed_until + timedelta(seconds=1))
        after = _pass(store, _email(box.port), builder, now=claimed_until + timedelta(days=1))
    assert (taken.sent, after.sent) == (1, 0)
    assert _subjects(box) == ["stripe.com — October 2026 report"]
    [send] = store.report_schedules.report_sends(ACCOUNT)
    assert (send.state, send.attempts) == ("sent", 3)
    assert builder.built == [("stripe.com", OCTOBER)]


def _state(store: HistoryStore) -> str | None:
    with store.engine.connect() as conn:
        return conn.execute(select(SENDS.c.state)).scalar_one_or_none()


def _claimed_until(store: HistoryStore) -> datetime:
    with store.engine.connect() as conn:
        value = conn.execute(select(SENDS.c.claimed_until)).scalar_one()
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def test_review_first_holds_the_report_until_an_editor_approves_it_then_sends_what_was_approved(
    store: HistoryStore,
) -> None:
    store.report_schedules.set_report_schedule(ACCOUNT, "stripe.com", "seo@client.com", True, EDITOR)
    builder = Builder()
    with smtp_server("reports", PASSWORD) as box:
        held = _pass(store, _email(box.port), builder)
        still = _pass(store, _email(box.port), builder, now=LATER + timedelta(days=3))
        assert held.summary == "reports: built 1, sent 0, waiting for review 1, failed 0"
        assert (still.built, still.sent, still.waiting_review, box.envelopes) == (0, 0, 1, [])
        [waiting] = store.report_schedules.report_sends(ACCOUNT, "stripe.com", states=["waiting_review"])
        assert waiting.words == "stripe.com, October 2026: waiting for review"
        with store.engine.connect() as conn:
            approved_pdf = conn.execute(select(SENDS.c.pdf)).scalar_one()
        assert store.report_schedules.approve_report_send(ACCOUNT, waiting.id, EDITOR)
        assert not store.report_schedules.approve_report_send(
            ACCOUNT, waiting.id, "bob@acme.com"
        )  # approved already
        sent = _pass(store, _email(box.port), builder, now=LATER + timedelta(days=4))
    assert (sent.sent, sent.waiting_review) == (1, 0)
    [(_from, _to, message)] = box.envelopes
    assert next(message.iter_attachments()).get_content() == bytes(approved_pdf)
    [send] = store.report_schedules.report_sends(ACCOUNT)
    assert (send.state, send.approved_by) == ("sent", EDITOR)
    assert builder.built == [("stripe.com", OCTOBER)]  # built once, before the review


def test_a_refusing_or_unreachable_mail_server_leaves_the_report_pending_with_the_reason_then_failed(
    store: HistoryStore,
) -> None:
    store.report_schedules.set_report_schedule(ACCOUNT, "stripe.com", "seo@client.com", False, EDITOR)
    builder = Builder()
    lines: list[str] = []
    with smtp_server("reports", PASSWORD) as box:
        wrong = _pass(store, _email(box.port, password="not-it"), builder, say=lines.append)
    assert (wrong.sent, wrong.retrying, wrong.ok) == (0, 1, False)
    [send] = store.report_schedules.report_sends(ACCOUNT)
    assert send.state == "pending"
    assert send.last_error == f"the mail server 127.0.0.1:{box.port} (none) refused the user name or password"
    assert "stripe.com, October 2026: to be sent (the mail server" in send.words
    assert not any("Traceback" in line or "not-it" in line for line in lines)

    nobody = free_port()  # nothing listens there
    early = _pass(store, _email(nobody), builder, now=LATER + timedelta(minutes=1))
    assert early.retrying == 0  # the 5-minute backoff holds
    codes = []
    for _run in range(7):  # attempts 2 to 5: refused each time, then failed for good
        out: list[str] = []
        codes.append(
            run_reports(store, _email(nobody), team=ACCOUNT, today=TODAY, say=lines.append, out=out.append)
        )
        _force_due(store)
    [send] = store.report_schedules.report_sends(ACCOUNT)
    assert (send.state, send.attempts) == ("failed", 5)
    assert send.last_error == f"the mail server 127.0.0.1:{nobody} (none) refused the connection"
    assert codes[:4] == [1, 1, 1, 1] and codes[4:] == [0, 0, 0]
    assert out == ["reports: built 0, sent 0, waiting for review 0, failed 0"]
    assert not any("Traceback" in line for line in lines)
    outcomes = [row for row in _audit(store) if row[1] == "send_report"]
    assert [row[3] for row in outcomes] == ["failed"] * 5


def _force_due(store: HistoryStore) -> None:
    """Skip the backoff: the next run may try at once (what waiting out 5 min, 10 min… would do)."""
    with store.engine.begin() as conn:
        conn.execute(SENDS.update().where(SENDS.c.state == "pending").values(claimed_until=None))


def test_a_report_that_cannot_be_built_is_named_and_tried_again_by_the_next_run(store: HistoryStore) -> None:
    store.report_schedules.set_report_schedule(ACCOUNT, "empty.com", "seo@client.com", False, EDITOR)
    lines: list[str] = []
    out: list[str] = []
    with smtp_server("reports", PASSWORD) as box:
        code = run_reports(
            store,
            _email(box.port),
            team=ACCOUNT,
            today=TODAY,
            say=lines.append,
            out=out.append,
            build_pdf=Builder(),
        )
    assert code == 1
    assert out == ["reports: built 0, sent 0, waiting for review 0, failed 0, not built 1"]
    assert (
        "reports: empty.com, October 2026 was not built: nothing about empty.com is recorded in October 2026"
        in lines
    )
    assert store.report_schedules.report_sends(ACCOUNT) == [] and box.envelopes == []


def test_without_mail_settings_or_a_deployment_key_nothing_is_built(store: HistoryStore) -> None:
    store.report_schedules.set_report_schedule(ACCOUNT, "stripe.com", "seo@client.com", False, EDITOR)
    lines: list[str] = []
    builder = Builder()
    no_mail = run_reports(
        store, None, team=ACCOUNT, today=TODAY, say=lines.append, out=print, build_pdf=builder
    )
    no_key = run_reports(
        store, _email(9), team=None, today=TODAY, say=lines.append, out=print, build_pdf=builder
    )
    assert (no_mail, no_key) == (2, 2)
    assert lines[0].startswith("The reports have nowhere to go: add an [alerts.email] section")
    assert lines[1].startswith("No report was built: no API key is configured for this deployment")
    assert builder.built == [] and store.report_schedules.report_sends(ACCOUNT) == []


def test_a_schedule_takes_e_mail_addresses_only_at_most_twenty_each_once(store: HistoryStore) -> None:
    assert check_recipients("a@x.com, B@x.com;\nb@x.com  c@y.co.uk") == ("a@x.com", "B@x.com", "c@y.co.uk")
    with pytest.raises(BadSchedule, match=re.escape("'Boss <boss@x.com>' is not an e-mail address")):
        check_recipients(["Boss <boss@x.com>"])
    with pytest.raises(BadSchedule, match="'nobody' is not an e-mail address"):
        check_recipients("nobody")
    with pytest.raises(BadSchedule, match="at least one recipient"):
        check_recipients(" \n ")
    with pytest.raises(BadSchedule, match="at most 20 recipients"):
        check_recipients([f"p{n}@x.com" for n in range(21)])
    assert store.report_schedules.set_report_schedule(ACCOUNT, "Stripe.com", "a@x.com", False, EDITOR)
    assert not store.report_schedules.set_report_schedule(
        ACCOUNT, "stripe.com", "a@x.com", False, "bob@acme.com"
    )
    assert store.report_schedules.set_report_schedule(
        ACCOUNT, "stripe.com", "a@x.com\nb@x.com", True, "bob@acme.com"
    )
    [schedule] = store.report_schedules.entries(ACCOUNT)
    assert (schedule.site, schedule.recipients, schedule.review_first, schedule.updated_by) == (
        "stripe.com",
        ("a@x.com", "b@x.com"),
        True,
        "bob@acme.com",
    )
    assert store.report_schedules.entries("another-account") == []
    assert store.report_schedules.remove_report_schedule(ACCOUNT, "stripe.com")
    assert not store.report_schedules.remove_report_schedule(ACCOUNT, "stripe.com")
    assert store.report_schedules.report_schedule(ACCOUNT, "stripe.com") is None
