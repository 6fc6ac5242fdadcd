"""The Market page's words in AppTest (Live mode, a temporary SQLite store holding watched keywords'
top 10s): column labels that are plain text, not Markdown, and a brand group that holds no keyword
said as such, with the Keyword groups tab still there to set the brand terms, cards that say since when
a figure moved, and downloads named after the keywords and group they hold."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from components.core.ui import tables
from components.core.ui.tables import csv_file_name
from store import HistoryStore
from tests.apptest.app_pages import open_page, shown_text
from tests.apptest.test_market_page import MINE, PAGE, TODAY, _keywords_mine_ranks_for, _record

DAYS = 5
FIRST_DAY = TODAY - timedelta(days=DAYS - 1)


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    _record(own_store, _keywords_mine_ranks_for(), days=DAYS)
    return own_store


def _labels(at: AppTest) -> list[str]:
    """Every configured column label of every table on the page."""
    return [
        config.get("label", "")
        for frame in at.dataframe
        for config in json.loads(frame.proto.columns or "{}").values()
    ]


def test_the_share_of_voice_tables_headers_are_the_domains_as_written(store: HistoryStore) -> None:
    at = open_page(PAGE, market_tab="Share of voice")
    assert not at.exception, [e.value for e in at.exception]
    labels = _labels(at)
    assert MINE in labels
    assert not [label for label in labels if "\\" in label]


def test_a_brand_group_without_a_brand_keyword_says_so_and_keeps_the_groups_tab(store: HistoryStore) -> None:
    at = open_page(PAGE)
    at.selectbox(key="market_group").set_value("brand").run()
    assert not at.exception, [e.value for e in at.exception]
    said = shown_text(at)
    assert "No top 10 is recorded" not in said
    assert "brand terms" in said and "Keyword groups" in said
    assert [tab.label for tab in at.tabs] == ["Keyword groups"]
    assert at.text_input(key="market_brand_terms") is not None  # where the brand terms are set


def test_your_sites_card_says_since_when_its_visibility_changed(store: HistoryStore) -> None:
    at = open_page(PAGE)
    (card,) = [m for m in at.metric if m.label == f"Visibility of {MINE}"]
    assert f"since {FIRST_DAY:%b %d, %Y}" in str(card.proto.delta)


def test_a_download_is_named_after_the_keywords_and_group_it_holds(
    store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    names: list[str] = []

    def named(*args: Any, **kwargs: Any) -> str:
        names.append(csv_file_name(*args, **kwargs))
        return names[-1]

    monkeypatch.setattr(tables, "csv_file_name", named)
    at = open_page(PAGE)
    at.selectbox(key="market_site").set_value(MINE)
    at.selectbox(key="market_group").set_value("non-brand").run()
    assert not at.exception, [e.value for e in at.exception]
    assert names and all(f"_{MINE}-non-brand_" in name for name in names[-2:]), names
