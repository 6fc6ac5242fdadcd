"""The ``reports`` command's work: build the scheduled monthly reports that are due and mail them, each
exactly once per site and period, through the digest's mail server (``[alerts.email]``).

One run does two things for the deployment's own account (``team``, as the digest):

1. **Build.** For each schedule whose period (``last_month(today)``) has no ``report_sends`` row yet,
   build the PDF once and insert the row: ``waiting_review`` when the schedule has an editor approve
   each report first, else ``pending``. The row is unique per account, site and period, so when two
   runs overlap only one insert lands; the other's fails harmlessly and nothing more is built for it.
   The PDF is kept on the row: what an editor approves is exactly what is mailed.
2. **Send.** Claim one due row at a time through the outbox the webhook uses too
   (``services.delivery.outbox``): ``pending`` and due, or ``sending`` whose claim ran out (a run killed
   while sending). Mail it to the row's recipients with the PDF attached, and settle it, if the claim
   is still this run's: ``sent``; ``pending`` again when the mail server failed and attempts remain
   (for a pending row ``claimed_until`` says when it may be tried again: 5 min, 10 min, … at most
   6 h); ``failed`` after ``max_attempts``.

Each report built, sent or not sent leaves an audit row by ``JOB_PERSON``. A run killed between the mail
server's "accepted" and the settle sends that report again once its claim runs out; both copies carry
the same Message-ID, so a mail system that drops repeats drops it. Exit codes as the digest's: 0 done,
1 a report could not be built or sent (each is named), 2 it cannot start (no ``[alerts.email]``, no
deployment key), 3 the history database cannot be used. Progress goes to ``say`` (stderr); the last
line to ``out`` (stdout) is ``reports: built N, sent M, waiting for review K, failed F``.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from sqlalchemy import Connection, func, insert, select
from sqlalchemy.exc import IntegrityError

from services.alerts.config import EmailConfig
from services.delivery.mail import Attachment, MailError, build_message, send_message
from services.delivery.outbox import Attempt, Claim, Outbox, OutboxRows
from services.jobs.exit_codes import EXIT_DATABASE, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from store.audit import AuditEvent, AuditOutcome
from store.engine import DATABASE_ERRORS, StoreUnavailable, unavailable, write_engine
from store.history import HistoryStore
from store.reports.period import Period, last_month
from store.reports.schedules import SENDS
from store.watchlist import as_utc

JOB_PERSON = "the reports job"
MAX_ATTEMPTS = 5
NO_MAIL_SERVER = (
    "The reports have nowhere to go: add an [alerts.email] section (host, from; see docs/team-guide.md) to "
    ".streamlit/secrets.toml. Nothing was built or sent."
)
NO_TEAM_KEY = (
    "No report was built: no API key is configured for this deployment (VERIFIEDDR_API_KEY or api_key "
    "in .streamlit/secrets.toml), and scheduled reports are of that key's sites only."
)
#: (account, site, period) → the report's PDF; raises a ``ReportProblem`` (or another ``NOT_BUILT``
#: error) saying in one line why it cannot be made.
BuildPdf = Callable[[str, str, Period], bytes]


def file_stem(site: str, period: Period) -> str:
    """The attachment's name without ``.pdf``: the same as ``BuiltReport.file_stem``."""
    return f"report-{site}-{period.slug}"


def claim_window(email: EmailConfig) -> timedelta:
    """How long a claim holds: the whole exchange with the mail server, twice, and a minute to spare."""
    return timedelta(seconds=2 * email.deadline_s + 60)


@dataclass
class ReportsRun:
    """What a run did: reports built, sent, refused for good, and those left to a later run."""

    built: int = 0
    sent: int = 0
    failed: int = 0
    #: Reports whose mail failed this time and will be tried again.
    retrying: int = 0
    #: Reports waiting for an editor's approval, of every period.
    waiting_review: int = 0
    #: "site, October 2026: why" for each report that could not be built.
    not_built: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        line = (
            f"reports: built {self.built}, sent {self.sent}, waiting for review {self.waiting_review}, "
            f"failed {self.failed}"
        )
        if self.retrying:
            line += f", to retry {self.retrying}"
        return line + (f", not built {len(self.not_built)}" if self.not_built else "")

    @property
    def ok(self) -> bool:
        return not (self.failed or self.retrying or self.not_built)


def real_builder(store: HistoryStore) -> BuildPdf:
    """The reports' own builder: branding read and the renderer started on the first report only, then
    reused for every other report of the run."""
    from services.reports.branding import usable_branding
    from services.reports.document import build_report
    from services.reports.render import shared_renderer

    made: dict[str, Any] = {}

    def build(account: str, site: str, period: Period) -> bytes:
        if not made:
            # A logo that cannot be used leaves the logo out, never the report.
            made["branding"], made["renderer"] = usable_branding()[0], shared_renderer()
        report = build_report(
            store, account, site, period, branding=made["branding"], renderer=made["renderer"]
        )
        return report.pdf()

    return build


def _not_built_errors() -> tuple[type[Exception], ...]:
    from services.reports.branding import BrandingError
    from services.reports.document import ReportProblem
    from services.reports.render import PdfUnavailable, RendererUnavailable

    return (ReportProblem, BrandingError, PdfUnavailable, RendererUnavailable)


def report_rows(account: str) -> OutboxRows:
    """The scheduled reports' outbox rows of ``account``: a pending row's retry time is its
    ``claimed_until``, and a report sent after a failed attempt keeps that attempt's error."""
    return OutboxRows(
        table=SENDS,
        scope=SENDS.c.account == account,
        retry_at=SENDS.c.claimed_until,
        order=(SENDS.c.period_start, SENDS.c.id),
        done_state="sent",
        done_at=SENDS.c.sent_at,
        refused_state="failed",
        error=SENDS.c.last_error,
        clears_error_when_done=False,
    )


def _send_of(conn: Connection, send_id: int) -> Any:
    """The claimed report's row, its PDF too."""
    return conn.execute(select(SENDS).where(SENDS.c.id == send_id)).one()


class _Reports:
    """One run's work on one account's schedules and outbox."""

    def __init__(
        self,
        store: HistoryStore,
        account: str,
        clock: Callable[[], datetime],
        say: Callable[[str], None],
    ) -> None:
        self.store = store
        self.account = account
        self.clock = clock
        self.say = say
        self.writer = write_engine(store.engine)
        self.run = ReportsRun()

    def audit(self, operation: str, site: str, period: Period, outcome: AuditOutcome, message: str) -> None:
        self.store.audit.record(
            AuditEvent(
                JOB_PERSON, None, self.account, operation, f"{site}, {period.words}", outcome, message=message
            )
        )

    def _has_row(self, site: str, period: Period) -> bool:
        query = select(SENDS.c.id).where(
            SENDS.c.account == self.account, SENDS.c.site == site, SENDS.c.period_start == period.start
        )
        with self.store.engine.connect() as conn:
            return conn.execute(query).first() is not None

    def build_due(self, period: Period, build_pdf: BuildPdf) -> None:
        errors = _not_built_errors()
        for schedule in self.store.report_schedules.entries(self.account):
            site = schedule.site
            if self._has_row(site, period):
                continue
            self.say(f"reports: building {site}, {period.words}")
            try:
                pdf = build_pdf(self.account, site, period)
            except errors as exc:
                self.run.not_built.append(f"{site}, {period.words}: {exc}")
                self.say(f"reports: {site}, {period.words} was not built: {exc}")
                continue
            state = "waiting_review" if schedule.review_first else "pending"
            row = {
                "account": self.account,
                "site": site,
                "period_start": period.start,
                "period_end": period.end,
                "state": state,
                "recipients": "\n".join(schedule.recipients),
                "pdf": pdf,
                "attempts": 0,
                "built_at": self.clock(),
            }
            try:
                with self.writer.begin() as conn:
                    conn.execute(insert(SENDS).values(row))
            except IntegrityError:  # an overlapping run built it first: theirs is the one sent
                self.say(f"reports: {site}, {period.words} was built by another run at the same time")
                continue
            self.run.built += 1
            next_step = "waits for an editor's approval" if schedule.review_first else "is to be sent"
            self.say(f"reports: built {site}, {period.words}; it {next_step}")
            self.audit("build_report", site, period, "done", f"Built; it {next_step}.")

    def send_due(self, email: EmailConfig, claim_for: timedelta, max_attempts: int) -> None:
        outbox = Outbox(self.store.engine, report_rows(self.account), claim_for)
        while (claim := outbox.claim_next(self.clock, set(), _send_of)) is not None:
            row = claim.item
            period = Period(row.period_start, row.period_end)
            named = f"{row.site}, {period.words}"
            recipients = tuple(row.recipients.split())
            to = replace(email, to=recipients)
            try:
                message = report_message(row.site, period, bytes(row.pdf or b""), to, self.account, row.id)
                refused = send_message(message, to)
            except MailError as exc:
                self._not_sent(outbox, claim, period, exc.reason, max_attempts)
                continue
            outbox.settle(claim, Attempt("done"), self.clock())
            self.run.sent += 1
            words = f"Sent to {len(recipients) - len(refused)} of {len(recipients)} recipients."
            if refused:
                words += f" The mail server refused {', '.join(refused)}."
                self.say(f"reports: the mail server refused {', '.join(refused)} for {named}")
            self.say(f"reports: sent {named} to {len(recipients) - len(refused)} recipients")
            self.audit("send_report", row.site, period, "done", words)

    def _not_sent(
        self, outbox: Outbox, claim: Claim[Any], period: Period, reason: str, max_attempts: int
    ) -> None:
        row = claim.item
        named = f"{row.site}, {period.words}"
        settled = outbox.settle(claim, Attempt("retry", reason), self.clock(), max_attempts)
        if settled.retry_at is None:
            words = f"Not sent after {row.attempts} attempts: {reason}."
            self.run.failed += 1
        else:
            words = f"Not sent ({reason}); it will be tried again from {settled.retry_at:%Y-%m-%d %H:%M} UTC."
            self.run.retrying += 1
        self.say(f"reports: {named}: {words}")
        self.audit("send_report", row.site, period, "failed", words)

    def count_waiting_review(self) -> int:
        query = select(func.count()).where(SENDS.c.account == self.account, SENDS.c.state == "waiting_review")
        with self.store.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())


def report_message(
    site: str, period: Period, pdf: bytes, email: EmailConfig, account: str, send_id: int
) -> EmailMessage:
    """The mail of one scheduled report: a short text and HTML, the PDF attached; the same Message-ID
    for every copy of this report."""
    name = f"{file_stem(site, period)}.pdf"
    text = (
        f"Attached: the {period.words} report for {site} ({name}).\n\n"
        "You receive it because you are on this site's monthly report list; reply to ask to be taken off."
    )
    body = (
        f"<p>Attached: the <strong>{html.escape(period.words)}</strong> report for "
        f"<strong>{html.escape(site)}</strong> ({html.escape(name)}).</p>"
        '<p style="color:#666">You receive it because you are on this site\'s monthly report list; reply to '
        "ask to be taken off.</p>"
    )
    return build_message(
        f"{site} — {period.words} report",
        text,
        body,
        email,
        attachments=[Attachment(name, pdf)],
        message_id=f"report-{account[:12]}-{send_id}",
    )


def reports_pass(
    store: HistoryStore,
    email: EmailConfig,
    *,
    account: str,
    today: date,
    build_pdf: BuildPdf | None = None,
    now: datetime | None = None,
    claim_for: timedelta | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    say: Callable[[str], None] = lambda _line: None,
) -> ReportsRun:
    """Build ``account``'s reports of ``last_month(today)`` that are due and send every due report;
    ``now`` (UTC) stands for a later moment in tests. StoreUnavailable when the database fails."""

    def clock() -> datetime:
        return as_utc(now).astimezone(UTC) if now is not None else datetime.now(UTC)

    work = _Reports(store, account, clock, say)
    try:
        work.build_due(last_month(today), build_pdf or real_builder(store))
        work.send_due(email, claim_for or claim_window(email), max_attempts)
        work.run.waiting_review = work.count_waiting_review()
    except StoreUnavailable:
        raise
    except DATABASE_ERRORS as exc:
        raise unavailable(exc, store.url, "write to") from exc
    return work.run


def run_reports(
    store: HistoryStore,
    email: EmailConfig | None,
    *,
    team: str | None,
    today: date,
    say: Callable[[str], None],
    out: Callable[[str], None],
    build_pdf: BuildPdf | None = None,
) -> int:
    """The command: one pass for the deployment's account, its lines, and the exit code."""
    if email is None:
        say(NO_MAIL_SERVER)
        return EXIT_USAGE
    if team is None:
        say(NO_TEAM_KEY)
        return EXIT_USAGE
    try:
        run = reports_pass(store, email, account=team, today=today, build_pdf=build_pdf, say=say)
    except StoreUnavailable as exc:
        say(f"History database unavailable: {exc.reason}")
        return EXIT_DATABASE
    out(run.summary)
    return EXIT_OK if run.ok else EXIT_FAILED
