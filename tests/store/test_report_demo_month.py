"""Last month's report of each demo site, gathered from the seeded demo history as the Reports page
gathers it: a month that moved, with figures that rose, figures that fell and at least one alert,
and a market whose domains do not all share one figure."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

from analysis.market import DEFAULT_CTR
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from sandbox.demo_history import demo_subjects
from services.alerts.evaluate import evaluate_alerts
from services.reports.content import ReportContent, gather
from store import HistoryStore
from store.reports.period import parse_month

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = date(2026, 11, 26)
MONTH = parse_month("2026-10")
SITES = demo_subjects(DEMO_KEY).own_sites


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HistoryStore]:
    url = f"sqlite:///{tmp_path_factory.mktemp('report-month') / 'history.sqlite3'}"
    with HistoryStore.open(url) as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
        evaluate_alerts(store, ACCOUNT, days=60)
        yield store


def _report(store: HistoryStore, site: str) -> ReportContent:
    return gather(store, ACCOUNT, site, MONTH, DEFAULT_CTR)


def _changes(content: ReportContent) -> dict[str, float]:
    """What the month gained (positive) or lost: each summary figure from its first day to its last, and
    each charted keyword's places from its first recorded position to its last."""
    changes = {row.label: row.change for row in content.summary if row.change is not None}
    rows = content.keywords.rows.dropna(subset=["position"]).sort_values("day", kind="stable")
    for keyword, positions in rows.groupby("keyword")["position"]:
        changes[str(keyword)] = float(positions.iloc[0] - positions.iloc[-1])
    return changes


@pytest.mark.parametrize("site", SITES)
def test_last_months_report_has_a_gain_a_loss_and_an_alert(demo_store: HistoryStore, site: str) -> None:
    content = _report(demo_store, site)
    changes = _changes(content)
    assert any(change > 0 for change in changes.values()), changes
    assert any(change < 0 for change in changes.values()), changes
    assert len(content.alerts) >= 1


def test_acme_widgets_summary_rose_and_fell_rather_than_held(demo_store: HistoryStore) -> None:
    """The first site the Reports page offers: its summary alone (ratings, trust, traffic, referring
    domains) has a figure that rose and one that fell, and at most one that held."""
    content = _report(demo_store, "acme-widgets.com")
    changes = {row.label: row.change for row in content.summary if row.change is not None}
    assert any(change > 0 for change in changes.values()), changes
    assert any(change < 0 for change in changes.values()), changes
    held = [label for label, change in changes.items() if change == 0]
    assert len(held) <= 1, held


def test_the_markets_compared_domains_do_not_share_one_visibility(demo_store: HistoryStore) -> None:
    content = _report(demo_store, "example.com")
    lines = content.visibility.lines
    own = lines[lines["domain"] == "example.com"]["visibility"].round(2)
    assert own.nunique() >= 2  # the site's visibility moved within the month
    latest = content.visibility.latest
    ranked = latest[latest["share_of_voice"] > 0]["share_of_voice"].round(2)
    assert ranked.nunique() == len(ranked), latest  # every compared domain its own share
