"""A referring domain that was a skipped row on a day is unknown that day, never lost: the History page's
churn, the report's "lost" list and the partner alert all leave it out of what disappeared, and say why.

Day 0's map of the own site has four usable referring domains; day 7's answer has the first three and
a row whose "domain" is a spreadsheet formula (as a tester met it): the fourth domain may be that row.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from analysis.figures import link_changes
from client.models import TrustMap
from services.alerts.evaluate import evaluate_alerts
from services.reports.content import link_churn
from store import HistoryStore
from store.reports.period import Period
from tests.hostile_map import HOSTILE_ROW
from tests.store.alert_history import OWN, approve_exchange, day, watch_own
from tests.store.samples import ACCOUNT

LIVE = {"linkType": "dofollow", "status": "live", "spamScore": 2.0, "importance": 5.0}
NAMES = ("a.com", "b.com", "c.com", "partner.io")


def _map(rows: list[dict[str, object]]) -> TrustMap:
    """A Trust Map as the client reads it from the service's answer."""
    return TrustMap.model_validate({"site": {"domain": OWN}, "totalDomains": 120, "domains": rows})


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore.open(f"sqlite:///{tmp_path / 'churn.sqlite3'}") as opened:
        watch_own(opened, ACCOUNT)
        whole = [{"domain": name, "dr": 40 + n, **LIVE} for n, name in enumerate(NAMES)]
        opened.snapshots.record_trust_map(ACCOUNT, _map(whole), day(0), "job")
        opened.snapshots.record_trust_map(ACCOUNT, _map([*whole[:3], HOSTILE_ROW]), day(7), "job")
        yield opened


def test_the_history_churn_counts_no_loss_for_a_day_with_a_skipped_row(store: HistoryStore) -> None:
    totals = store.queries.trust_map_totals(ACCOUNT, OWN)
    skipped = link_changes.skipped_on(totals, day(7))
    assert skipped == 1
    result = link_changes.churn(
        store.queries.trust_map_links(ACCOUNT, OWN, day(0)),
        store.queries.trust_map_links(ACCOUNT, OWN, day(7)),
        skipped,
    )
    assert result.counts() == {"appeared": 0, "disappeared": 0, "new spam risk": 0, "live → lost": 0}
    assert result.unknown["referring_domain"].tolist() == ["partner.io"]
    assert link_changes.unknown_words(result, day(7), skipped) == (
        f"1 referring domain missing from the sample of {day(7):%b %d, %Y} is not counted as gone: 1 row "
        "of that day's Trust Map could not be used, and it may be among them."
    )
    # Without a skipped row, the same missing domain is a disappearance, as it always was.
    plain = link_changes.churn(
        store.queries.trust_map_links(ACCOUNT, OWN, day(0)),
        store.queries.trust_map_links(ACCOUNT, OWN, day(7)),
    )
    assert plain.disappeared["referring_domain"].tolist() == ["partner.io"]


def test_the_reports_lost_list_leaves_the_unknown_domain_out_and_says_why(store: HistoryStore) -> None:
    churn = link_churn(store, ACCOUNT, OWN, Period(day(0), day(7)))
    assert churn.lost.empty and churn.gained.empty
    assert "not counted as gone" in churn.not_counted


def test_a_partner_missing_on_a_day_with_a_skipped_row_is_not_alerted_as_gone(store: HistoryStore) -> None:
    approve_exchange(store, ACCOUNT, "partner.io", OWN, day(0))
    evaluate_alerts(store, ACCOUNT, as_of=day(7), days=8)
    alerts = store.alerts.entries(ACCOUNT, state="all")
    assert "partner_stopped_linking" not in set(alerts["rule"])
