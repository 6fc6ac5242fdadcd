"""Concurrent writers, as when the app records a page's read while the daily job runs (or two jobs run):
none of them fails and no (account, subject, day) ever gets a second row, against SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import threading
from datetime import date
from pathlib import Path

from sqlalchemy import func, select

from store import HistoryStore
from store.models import DomainSnapshotRow, KeywordSnapshotRow, TrustMapLinkRow, TrustMapSnapshotRow
from tests.store import samples
from tests.store.samples import ACCOUNT

DAY = date(2025, 1, 6)
ROUNDS = 15
ROOT = Path(__file__).resolve().parents[2]


def _counts(store: HistoryStore) -> dict[str, int]:
    with store.engine.connect() as conn:
        return {
            model.__tablename__: conn.execute(select(func.count()).select_from(model)).scalar_one()
            for model in (DomainSnapshotRow, TrustMapSnapshotRow, TrustMapLinkRow, KeywordSnapshotRow)
        }


def _record_rounds(store: HistoryStore, worker: int) -> None:
    for n in range(ROUNDS):
        flip = (worker + n) % 2
        store.snapshots.record_lookup(
            ACCOUNT, samples.lookup(dr=80 + flip), DAY, "job" if flip else "browsing"
        )
        members = ("a.com", "b.com", "c.com") if flip else ("a.com", "d.com")
        store.snapshots.record_trust_map(ACCOUNT, samples.trust_map(members=members), DAY, "job")
        store.snapshots.record_tracked(
            ACCOUNT, samples.tracked(positions={"crm software": 5 + flip}), DAY, "job"
        )


def test_threads_of_two_stores_writing_the_same_subject_and_day(store_url: str) -> None:
    app, job = HistoryStore.open(store_url), HistoryStore.open(store_url)
    problems: list[BaseException] = []

    def work(store: HistoryStore, worker: int) -> None:
        try:
            _record_rounds(store, worker)
            store.watchlist.watch(ACCOUNT, "domain", "stripe.com")
        except BaseException as exc:
            problems.append(exc)

    threads = [threading.Thread(target=work, args=(app if i % 2 else job, i)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert problems == []
        counts = _counts(app)
        assert counts["domain_snapshots"] == 1 and counts["trust_map_snapshots"] == 1
        assert counts["keyword_snapshots"] == 1
        # The links are those of one complete sample, never a mix of two.
        links = sorted(app.queries.trust_map_links(ACCOUNT, "stripe.com", DAY)["referring_domain"])
        assert links in (["a.com", "b.com", "c.com"], ["a.com", "d.com"])
        assert len(app.watchlist.entries(ACCOUNT)) == 1
    finally:
        app.close()
        job.close()


WRITER = """
import sys
from datetime import date
from store import HistoryStore
from tests.store import samples
store = HistoryStore.open(sys.argv[1])
print("ready", flush=True)
for n in range(int(sys.argv[2])):
    store.snapshots.record_lookup(samples.ACCOUNT, samples.lookup(dr=80 + n % 2), date(2025, 1, 6), "job")
    store.snapshots.record_trust_map(
        samples.ACCOUNT, samples.trust_map(members=("a.com", "b.com")[: 1 + n % 2]), date(2025, 1, 6), "job"
    )
print("done")
"""


def test_another_process_writing_while_this_one_writes(store_url: str) -> None:
    with HistoryStore.open(store_url) as store:
        other = subprocess.Popen(
            [sys.executable, "-c", WRITER, store_url, str(ROUNDS)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert other.stdout is not None
        assert other.stdout.readline().strip() == "ready"  # both write from here on, at the same time
        for n in range(ROUNDS):
            store.snapshots.record_lookup(ACCOUNT, samples.lookup(dr=81 - n % 2), DAY, "browsing")
            store.snapshots.record_trust_map(
                ACCOUNT, samples.trust_map(members=("a.com", "b.com")[: 1 + n % 2]), DAY, "job"
            )
        out, err = other.communicate(timeout=60)
        assert other.returncode == 0, err[-2000:]
        assert out.strip() == "done"
        counts = _counts(store)
        assert counts["domain_snapshots"] == 1 and counts["trust_map_snapshots"] == 1
        assert counts["trust_map_links"] in (1, 2)
