"""When the demo's watched keywords become winnable, on the seeded demo history of several days: every
answer the When winnable tab can give turns up on each of them (within reach now, in about N months,
not at the current pace, too little history yet), so the demo shows what each looks like."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path

import pytest

from analysis.opportunities.outlook import outlooks, state_counts
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from store import HistoryStore

ACCOUNT = key_fingerprint(DEMO_KEY)
STATES = ("within_reach", "in_months", "not_at_this_pace", "too_little_history")


def _counts(day: date) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as folder:
        with HistoryStore.open(f"sqlite:///{Path(folder) / 'history.sqlite3'}") as store:
            seed_demo_history(store, ACCOUNT, DEMO_KEY, day)
            pairs = [
                (entry.site, entry.subject)
                for entry in store.watchlist.entries(ACCOUNT)
                if entry.kind == "keyword" and entry.site
            ]
            sites = sorted({site for site, _ in pairs})
            domains = store.queries.domain_history(ACCOUNT, sites, None)
            return state_counts(outlooks(domains, store.queries.serp_history(ACCOUNT, None, None), pairs))


@pytest.mark.parametrize("day", [date(2026, 11, 28), date(2027, 2, 1), date(2027, 10, 1)])
def test_the_demos_watched_keywords_show_every_answer(day: date) -> None:
    counts = _counts(day)
    assert all(counts.get(state, 0) >= 1 for state in STATES), (day, counts)
