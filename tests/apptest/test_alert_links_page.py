"""Each rule's Chart link opens the History page on its evidence, in AppTest, in Live mode against the
session sandbox, on a constructed history where every rule fires once (``tests.store.evidence_history``):
Domain trends with the alert's domain alone, its metric chosen, the alert's window instead of the
period and its before and after points marked; Trust Map churn on the two snapshots compared with the
alert's referring domain first in the table; Keyword positions on the right site (tracked, or watched
for a domain) with that keyword charted and its two positions marked. Clear gives the period back."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analysis.links import alert_query
from client.growth_inputs import normalise_slug
from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text
from tests.store.evidence_history import LAST, WATCHED, every_rule_history, expected

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = normalise_slug(MINE)
TODAY = datetime.now(UTC).date()
START = TODAY - timedelta(days=LAST)
EXPECTED = expected(MINE, SLUG)
DOMAIN_RULES = ("authority_drop", "referring_domains_fell", "traffic_validation_lost", "verification_lost")
#: The "Also over time" choice each domain rule's link makes (None: the DR and TrueDR chart holds it).
ALSO_OVER_TIME = {"referring_domains_fell": "referring_domains", "traffic_validation_lost": "traffic"}


def _day(n: int) -> date:
    return START + timedelta(days=n)


@pytest.fixture
def alerts(own_store: HistoryStore) -> pd.DataFrame:
    every_rule_history(own_store, ACCOUNT, MINE, SLUG, START)
    return own_store.alerts.entries(ACCOUNT, state="all")


def _link(alerts: pd.DataFrame, rule: str, subject: str) -> dict[str, str]:
    return alert_query(next(alerts[(alerts["rule"] == rule) & (alerts["subject"] == subject)].itertuples()))


def _open(query: dict[str, str]) -> AppTest:
    at = open_page("views/history.py", **query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _marked(at: AppTest, title: str) -> dict[str, tuple[str, Any]]:
    """The before and after points of the chart whose title starts with ``title``: label -> (day, y)."""
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    spec = next(s for s in specs if str(s["layout"]["title"]["text"]).startswith(title))
    return {
        trace["name"]: (str(trace["x"][0])[:10], trace["y"][0])
        for trace in spec["data"]
        if trace.get("name") in ("Before", "After")
    }


@pytest.mark.parametrize("rule", DOMAIN_RULES)
def test_a_domain_rules_link_opens_its_domain_window_and_metric_with_before_and_after_marked(
    alerts: pd.DataFrame, rule: str
) -> None:
    want = EXPECTED[rule]
    at = _open(_link(alerts, rule, want.subject))
    before, after = want.days
    assert at.multiselect(key="history_domains").value == [want.subject]
    assert at.date_input(key="history_period_window").value == (_day(before - 1), _day(after))
    assert not [c for c in at.segmented_control if c.key == "history_period"]  # the window, not a period
    also = at.segmented_control(key="history_metric").value
    assert also == ALSO_OVER_TIME.get(rule, "traffic")
    title = (
        "DR and TrueDR"
        if rule not in ALSO_OVER_TIME
        else {"referring_domains": "Referring", "traffic": "Traffic"}[also]
    )
    marked = _marked(at, title)
    assert {label: day for label, (day, _) in marked.items()} == {
        "Before": str(_day(before)),
        "After": str(_day(after)),
    }
    values = {"authority_drop": (50, 47), "referring_domains_fell": (1000, 940)}
    if rule in values:
        assert tuple(y for _, y in marked.values()) == values[rule]
    said = shown_text(at)
    assert "Marked on the chart" in said and "before:" in said and "after:" in said


def test_clearing_the_alert_window_gives_the_period_buttons_back(alerts: pd.DataFrame) -> None:
    at = _open(_link(alerts, "authority_drop", EXPECTED["authority_drop"].subject))
    at.button(key="history_period_window_clear").click().run()
    assert not at.exception
    assert at.segmented_control(key="history_period").value == "90 days"
    assert not [d for d in at.date_input if d.key == "history_period_window"]
    assert _marked(at, "DR and TrueDR") == {}
    assert "history_from" not in at.query_params


@pytest.mark.parametrize("rule", ["spam_risky_link", "strong_link_lost", "partner_stopped_linking"])
def test_a_link_rules_link_opens_the_two_snapshots_compared_with_its_referring_domain_first(
    alerts: pd.DataFrame, rule: str
) -> None:
    want = EXPECTED[rule]
    at = _open(_link(alerts, rule, want.subject))
    assert at.selectbox(key="history_churn_domain").value == MINE
    before, after = want.days
    assert at.select_slider(key=f"history_churn_days_{MINE}").value == (_day(before), _day(after))
    table = next(frame.value for frame in at.dataframe if "referring_domain" in frame.value.columns)
    assert table["referring_domain"].iloc[0] == want.referring_domain
    assert f"**{want.referring_domain}**, is first in the table" in as_read(shown_text(at))


@pytest.mark.parametrize("rule", ["keyword_left_top10", "keyword_moved", "watched"])
def test_a_keyword_rules_link_opens_its_site_and_keyword_with_before_and_after_marked(
    alerts: pd.DataFrame, rule: str
) -> None:
    want = WATCHED if rule == "watched" else EXPECTED[rule]
    at = _open(_link(alerts, "keyword_left_top10" if rule == "watched" else rule, want.subject))
    site = f"Watched for {MINE}" if rule == "watched" else MINE
    assert at.selectbox(key="history_kw_site").value == site
    assert at.multiselect(key="history_kw_chosen").value == [want.subject]
    before, after = want.days
    assert at.date_input(key="history_kw_period_window").value == (_day(before - 1), _day(after))
    marked = _marked(at, "Positions over time")
    assert {label: day for label, (day, _) in marked.items()} == {
        "Before": str(_day(before)),
        "After": str(_day(after)),
    }
    after_words = {"keyword_left_top10": "after: #14", "keyword_moved": "after: #14"}
    # The watched keyword left the results: its "after" sits at the foot of the chart.
    assert after_words.get(rule, "after: not ranking") in shown_text(at)
    # The window ends the period: days recorded after it are in neither the summary nor the daily rows.
    tables = [frame.value for frame in at.dataframe]
    summary = next(t for t in tables if "days_in_top_10" in t.columns)
    daily = next(t for t in tables if "tier" in t.columns)
    assert max(pd.to_datetime(summary["latest_day"]).dt.date) == _day(after)
    assert max(pd.to_datetime(daily["day"]).dt.date) == _day(after) < _day(LAST)


def _follow(at: AppTest, query: dict[str, str]) -> AppTest:
    """From the page ``at`` shows, follow a Chart link: the History page with the link's query."""
    at.query_params.clear()
    for name, value in query.items():
        at.query_params[name] = value
    at.switch_page("views/history.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _leave_for_the_alerts_page(at: AppTest) -> None:
    at.query_params.clear()
    at.switch_page("views/alerts.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_domain_rules_link_followed_again_after_another_page_opens_its_window_again(
    alerts: pd.DataFrame,
) -> None:
    """Follow an alert's link, go to the Alerts page, follow the same link again: the second arrival
    shows the alert's window and points too (it once showed a one-day window of today, unmarked)."""
    want = EXPECTED["authority_drop"]
    query = _link(alerts, "authority_drop", want.subject)
    at = _open(query)
    _leave_for_the_alerts_page(at)
    _follow(at, query)
    before, after = want.days
    assert at.date_input(key="history_period_window").value == (_day(before - 1), _day(after))
    assert set(_marked(at, "DR and TrueDR")) == {"Before", "After"}


def test_the_history_page_opened_without_a_link_after_one_shows_the_period_buttons(
    alerts: pd.DataFrame,
) -> None:
    """An alert's window belongs to the visit its link opened: the History page opened later from the
    sidebar (no link) shows the period buttons, not the old alert's window."""
    at = _open(_link(alerts, "authority_drop", EXPECTED["authority_drop"].subject))
    _leave_for_the_alerts_page(at)
    _follow(at, {})
    assert at.segmented_control(key="history_period").value == "90 days"
    assert not [d for d in at.date_input if d.key == "history_period_window"]
    assert _marked(at, "DR and TrueDR") == {}


def test_a_competitor_alerts_link_opens_the_markets_churn_on_the_two_days_it_compared(
    alerts: pd.DataFrame,
) -> None:
    want = EXPECTED["competitor_top3"]
    at = open_page("views/market.py", **_link(alerts, "competitor_top3", want.subject))
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="market_site").value == MINE
    assert at.select_slider(key="market_churn_days").value == (_day(want.days[0]), _day(want.days[1]))
    churn = next(frame.value for frame in at.dataframe if "change" in frame.value.columns)
    entered = churn[(churn["change"] == "entered") & (churn["keyword"] == want.subject)]
    assert entered[["domain", "position"]].values.tolist() == [["rival.io", 2]]


def test_a_visibility_alerts_link_opens_the_markets_visibility_of_its_site_and_group(
    alerts: pd.DataFrame,
) -> None:
    at = open_page("views/market.py", **_link(alerts, "visibility_fell", MINE))
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="market_site").value == MINE
    assert at.selectbox(key="market_group").value == "all"
    assert f"Visibility of {MINE}" in [m.label for m in at.metric]
