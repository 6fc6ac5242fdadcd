"""The History page's Keyword positions tab in AppTest (Live mode, a temporary SQLite store holding two
of your sites' tracked keywords): the keywords on the charts follow the site picked, and the table of
every recorded day speaks in plain words."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from sandbox.demo_history import lookup_on, tracked_on
from store import HistoryStore
from tests.apptest.app_pages import open_page
from tests.apptest.test_history_page import ACCOUNT, PAGE, TODAY

MINE, OTHER = ACCOUNTS[DEMO_KEY].sites[:2]
DAYS = 5


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    for site in (MINE, OTHER):
        for back in range(DAYS):
            day = TODAY - timedelta(days=back)
            own_store.snapshots.record_tracked(ACCOUNT, tracked_on(DEMO_KEY, site, day), day, "job")
            own_store.snapshots.record_lookup(ACCOUNT, lookup_on(site, day), day, "job")
    return own_store


def test_picking_another_site_puts_its_keywords_on_the_charts(store: HistoryStore) -> None:
    at = open_page(PAGE, history_tab="Keyword positions")
    assert at.selectbox(key="history_kw_site").value == MINE
    at.selectbox(key="history_kw_site").set_value(OTHER).run()
    assert not at.exception, [e.value for e in at.exception]
    expected = {k.keyword for k in tracked_on(DEMO_KEY, OTHER, TODAY).keywords}
    chosen = at.multiselect(key="history_kw_chosen").value
    assert chosen and set(chosen) <= expected


def test_every_recorded_day_is_labelled_in_words_and_its_tiers_explained(store: HistoryStore) -> None:
    at = open_page(PAGE, history_tab="Keyword positions")
    (daily,) = [frame for frame in at.dataframe if "previous_position" in frame.value.columns]
    config = json.loads(daily.proto.columns)
    labels = {name: config.get(name, {}).get("label") for name in daily.value.columns}
    assert all(label and "_" not in label for label in labels.values()), labels
    assert all(word in config["tier"]["help"] for word in ("boost", "advanced", "ultra"))


def test_a_weeks_change_in_traffic_is_written_with_thousands_separators(store: HistoryStore) -> None:
    at = open_page(PAGE)
    (weekly,) = [frame for frame in at.dataframe if "traffic_change" in frame.value.columns]
    config = json.loads(weekly.proto.columns)
    for column in ("traffic_change", "referring_domains_change"):
        assert "," in config[column]["type_config"]["format"]  # +1,234, as a change is written in words
