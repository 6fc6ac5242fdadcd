"""The Market page in AppTest, in Live mode against the session sandbox, its store a temporary SQLite
file holding watched keywords' reports recorded through HistoryStore (as the daily job records them):
visibility and share of voice of your site against the domains of the top 10s, churn, the top 10's DR,
and the empty states said in plain words."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analysis.market import dr_spread, one_top10_per_keyword, serp_churn, visibility_and_share
from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from sandbox.demo_history import keyword_report_on, lookup_on
from sandbox.keyword_data import serp_on
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
RIVAL = "semrush.com"
TODAY = datetime.now(UTC).date()
PAGE = "views/market.py"
DAYS = 20


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    return own_store


def _keywords_mine_ranks_for(count: int = 3) -> list[str]:
    """Keywords whose top 10 holds ``MINE`` today (the sandbox's demo site ranks for its topics)."""
    candidates = ["cookie free analytics", "website heatmap tool", "privacy analytics", "web analytics tool"]
    ranked = [k for k in candidates if MINE in {row.domain for row in serp_on(k, TODAY)}]
    assert ranked, f"{MINE} ranks for none of {candidates} today"
    return ranked[:count]


def _record(store: HistoryStore, keywords: list[str], days: int = DAYS) -> None:
    store.watchlist.watch(ACCOUNT, "domain", RIVAL)
    for keyword in keywords:
        store.watchlist.watch(ACCOUNT, "keyword", keyword, site=MINE)
        for back in range(days):
            day = TODAY - timedelta(days=back)
            store.snapshots.record_keyword_report(
                ACCOUNT, keyword_report_on(keyword, day, MINE), day, "job", MINE, keyword
            )


def _table(at: AppTest, column: str) -> pd.DataFrame:
    found = [frame.value for frame in at.dataframe if column in frame.value.columns]
    assert found, f"no table with a {column} column"
    return found[0]


def test_visibility_compares_your_site_with_your_competitor_and_the_top_10s_domains(
    store: HistoryStore,
) -> None:
    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    table = _table(at, "share_of_voice")
    expected = visibility_and_share(
        one_top10_per_keyword(store.queries.serp_history(ACCOUNT, since=TODAY - timedelta(days=89)))
    )
    latest = expected[expected["day"] == expected["day"].max()].set_index("domain")
    shown = table.set_index("domain")
    assert shown.loc[MINE, "role"] == "your site"
    assert shown.loc[RIVAL, "role"] == "competitor"
    assert (
        shown.loc[MINE, "visibility"] == pytest.approx(latest.loc[MINE, "visibility"])
        if MINE in latest.index
        else 0
    )
    assert shown["share_of_voice"].sum() == pytest.approx(100.0)
    assert len(at.get("plotly_chart")) == 1
    assert f"Visibility of {MINE}" in [m.label for m in at.metric]
    assert "Share of voice" in shown_text(at)


def test_churn_lists_who_entered_and_left_between_two_days(store: HistoryStore) -> None:
    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    at = open_page(PAGE, market_tab="Top-10 churn")
    assert not at.exception, [e.value for e in at.exception]
    assert [m.label for m in at.metric][:2] == ["Entered a top 10", "Left a top 10"]


def test_the_top_10s_dr_over_time_shows_a_chart_per_keyword(store: HistoryStore) -> None:
    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    at = open_page(PAGE, market_tab="Top-10 DR")
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="market_spread_keyword").options == sorted(keywords)
    assert len(at.get("plotly_chart")) == 1
    assert set(_table(at, "median_dr")["keyword"]) == set(keywords)


def test_the_churn_and_the_dr_tables_are_the_definitions_over_the_periods_top_10s(
    store: HistoryStore,
) -> None:
    """The two tabs read only what they show (two days; the DRs summed at the database), and show what
    the definition gives over every top 10 of the period."""
    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    top10s = one_top10_per_keyword(store.queries.serp_history(ACCOUNT, since=TODAY - timedelta(days=89)))
    at = open_page(PAGE, market_tab="Top-10 churn")
    before, after = at.select_slider(key="market_churn_days").value
    expected = serp_churn(top10s, before, after)
    assert not expected.empty  # the demo's top 10s drift within a week
    shown = _table(at, "change")
    assert (
        shown[["keyword", "change", "domain"]].values.tolist()
        == expected[["keyword", "change", "domain"]].values.tolist()
    )
    at = open_page(PAGE, market_tab="Top-10 DR")
    spread = dr_spread(top10s).sort_values("day", kind="stable")
    latest = spread.groupby("keyword").last()
    table = _table(at, "median_dr").set_index("keyword")
    assert table["median_dr"].to_dict() == pytest.approx(latest["median_dr"].to_dict())
    assert table["min_dr"].to_dict() == pytest.approx(latest["min_dr"].to_dict())


def test_without_watched_keywords_the_page_says_how_to_start(store: HistoryStore) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    assert "No keyword is watched yet" in shown_text(at)


def _tag(at: AppTest, keywords: list[str], tag: str, button: str = "Add tag") -> AppTest:
    at.multiselect(key="market_tag_keywords").set_value(keywords)
    at.text_input(key="market_tag_name").set_value(tag)
    next(b for b in at.button if b.label == button).click()
    return at.run()


def test_an_editor_tags_keywords_and_the_tag_becomes_a_group_of_its_own(store: HistoryStore) -> None:
    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    at = _tag(open_page(PAGE, market_tab="Keyword groups"), keywords[:2], "Pricing")
    assert not at.exception, [e.value for e in at.exception]
    assert "Tagged 2 keywords “pricing”." in shown_text(at)
    assert store.groups.keyword_tags(ACCOUNT) == {k: ("pricing",) for k in keywords[:2]}
    audited = store.audit.events(ACCOUNT, operation="tag_keyword")
    assert len(audited) == 2 and set(audited["outcome"]) == {"done"}
    groups = _table(at, "tags").set_index("keyword")["tags"]
    assert groups[keywords[0]] == "pricing" and groups[keywords[2]] == ""

    at = _tag(at, keywords[:1], "pricing", button="Remove tag")
    assert store.groups.keyword_tags(ACCOUNT) == {keywords[1]: ("pricing",)}

    visibility = open_page(PAGE)
    assert f"Over the {len(keywords)} keywords" in shown_text(visibility)
    visibility.selectbox(key="market_group").set_value("pricing").run()
    assert "Over the 1 keyword with a recorded top 10 on the latest day" in shown_text(visibility)


def test_brand_terms_split_a_sites_keywords_into_brand_and_non_brand(store: HistoryStore) -> None:
    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    at = open_page(PAGE, market_tab="Keyword groups")
    assert not _table(at, "brand")["brand"].any()  # no keyword contains the site's name
    at.selectbox(key="market_brand_site").set_value(MINE)
    at.text_input(key="market_brand_terms").set_value("privacy")
    next(b for b in at.button if b.label == "Save brand terms").click()
    at.run()
    assert f"Brand terms of {MINE} saved." in shown_text(at)
    assert store.groups.brand_terms(ACCOUNT) == {MINE: ("privacy",)}
    brand = _table(at, "brand").set_index("keyword")["brand"]
    assert brand.to_dict() == {k: "privacy" in k for k in keywords}
    assert len(store.audit.events(ACCOUNT, operation="set_brand_terms")) == 1


def test_a_viewer_sees_the_groups_but_cannot_change_them(store: HistoryStore) -> None:
    _record(store, _keywords_mine_ranks_for())
    access = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}
    at = open_page(PAGE, email="bob@acme.com", access=access, market_tab="Keyword groups")
    assert not at.exception, [e.value for e in at.exception]
    reason = "Editors only: you can read everything here; ask it@acme.com to change things."
    controls = [b for b in at.button if b.label in {"Add tag", "Remove tag", "Save brand terms"}]
    assert len(controls) == 3 and all(b.disabled and b.help == reason for b in controls)
    assert as_read(shown_text(at)).count(reason) == 1
    assert not _table(at, "tags").empty


def _annotations(at: AppTest, index: int = 0) -> list[str]:
    figure = json.loads(at.get("plotly_chart")[index].proto.spec)
    return [a.get("hovertext", "") for a in figure.get("layout", {}).get("annotations", [])]


def test_an_editors_note_is_kept_audited_and_marked_on_the_charts_until_switched_off(
    store: HistoryStore,
) -> None:
    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    at = open_page(PAGE, market_tab="Notes")
    # A note may be about any keyword with a top 10 in the period (read down the top 10s' index).
    assert at.selectbox(key="note_subject").options[-len(keywords) :] == sorted(keywords)
    at.date_input(key="note_day").set_value(TODAY - timedelta(days=3))
    at.text_input(key="note_text").set_value("Pricing page <b>relaunched</b>")
    next(b for b in at.button if b.label == "Add note").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Note added" in shown_text(at)
    notes = store.notes.entries(ACCOUNT)
    assert notes["text"].tolist() == ["Pricing page <b>relaunched</b>"]
    assert notes["day"].tolist() == [TODAY - timedelta(days=3)]
    assert store.audit.events(ACCOUNT, operation="add_note")["outcome"].tolist() == ["done"]

    charts = open_page(PAGE)
    said = _annotations(charts)
    assert any("Pricing page &lt;b&gt;relaunched&lt;/b&gt;" in text for text in said)  # inert text
    charts.toggle(key="market_visibility_notes").set_value(False).run()
    assert not any("relaunched" in text for text in _annotations(charts))

    for back in range(5):
        day = TODAY - timedelta(days=back)
        store.snapshots.record_lookup(ACCOUNT, lookup_on(MINE, day), day, "job")
    history = open_page("views/history.py")
    assert any("relaunched" in text for text in _annotations(history))  # a note about nothing in particular


def test_with_every_keywords_search_volume_known_the_volume_weighted_visibility_can_be_shown(
    store: HistoryStore,
) -> None:
    from client.growth_inputs import normalise_slug
    from tests.store.samples import tracked

    keywords = _keywords_mine_ranks_for()
    _record(store, keywords)
    store.snapshots.record_tracked(
        ACCOUNT, tracked(normalise_slug(MINE), dict.fromkeys(keywords, 5)), TODAY, "job"
    )
    at = open_page(PAGE)
    at.toggle(key="market_weighted").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    table = _table(at, "weighted_visibility").set_index("domain")
    # Every keyword has the same volume (9,000): weighted, the figure is the plain visibility.
    assert table.loc[MINE, "weighted_visibility"] == pytest.approx(table.loc[MINE, "visibility"])
    assert "Volume-weighted visibility over time" in json.dumps(
        json.loads(at.get("plotly_chart")[0].proto.spec)
    )
