"""The scheduled reports end to end with the real report: the sandbox's demo history (as the app seeds
it), the reports' own builder (one Chromium for the charts, WeasyPrint for the PDF) and a real SMTP
server (aiosmtpd on 127.0.0.1). SQLite only: the outbox's behaviour on both databases is
``test_report_schedule``'s; this one checks that what arrives is the real report.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from sandbox.demo_history import demo_subjects
from services.alerts.config import EmailConfig
from services.jobs.reports import reports_pass
from store import HistoryStore
from tests.store.local_servers import smtp_server

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = date(2026, 11, 3)


def test_the_real_report_of_each_scheduled_site_arrives_as_a_pdf_and_an_unknown_site_is_named(
    tmp_path: Path,
) -> None:
    mine, other = demo_subjects(DEMO_KEY).own_sites[:2]
    lines: list[str] = []
    with HistoryStore.open(f"sqlite:///{tmp_path / 'history.sqlite3'}") as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)  # as the app seeds it in Sandbox mode
        store.report_schedules.set_report_schedule(ACCOUNT, mine, "seo@client.com", False, "ann@acme.com")
        store.report_schedules.set_report_schedule(ACCOUNT, other, "lead@client.com", True, "ann@acme.com")
        store.report_schedules.set_report_schedule(
            ACCOUNT, "not-mine.com", "x@client.com", False, "ann@acme.com"
        )
        with smtp_server() as box:
            email = EmailConfig("127.0.0.1", box.port, "none", "reports@example.com", ("digest@example.com",))
            run = reports_pass(
                store,
                email,
                account=ACCOUNT,
                today=TODAY,
                now=datetime(2026, 11, 3, 7, tzinfo=UTC),
                say=lines.append,
            )
    assert (run.built, run.sent, run.waiting_review) == (2, 1, 1), lines
    assert run.not_built == [
        "not-mine.com, October 2026: not-mine.com is not one of your sites in the history "
        f"(your sites are {', '.join(sorted(demo_subjects(DEMO_KEY).own_sites))})."
    ]
    [(_from, recipients, message)] = box.envelopes
    assert recipients == ["seo@client.com"]
    assert message["Subject"] == f"{mine} — October 2026 report"
    [attachment] = list(message.iter_attachments())
    assert attachment.get_filename() == f"report-{mine}-2026-10.pdf"
    pdf = attachment.get_content()
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
