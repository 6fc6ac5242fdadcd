"""The History page in AppTest, in Live mode against the session sandbox, its store a temporary SQLite
file holding rows recorded through HistoryStore: trends, churn, positions, the watchlist, the Watch
buttons of other pages, free history from browsing, and an unreachable database said in plain words."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from client.inputs import slug_for
from client.models import MapSite, ReferringDomain, TrustMap
from client.settings import key_fingerprint
from components.core.history import reads as history_reads
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.demo_history import lookup_on, tracked_on
from sandbox.keyword_data import serp_on
from store import HistoryStore
from tests.apptest.app_pages import as_read, button, metric, open_page, shown_text
from tests.hostile_map import HOSTILE_ROW
from tests.sandbox_picks import new_domain
from tests.store import samples

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
RIVAL = "semrush.com"
TODAY = datetime.now(UTC).date()  # Live mode: a read stands for today in UTC
PAGE = "views/history.py"
UNREACHABLE = "postgresql+psycopg://u:secret@127.0.0.1:1/x"
PASSWORD = re.compile(r"\bsecret\b")


def _utc_today() -> date:
    """Today in UTC now, not when this module was imported: the suite may cross midnight between."""
    return datetime.now(UTC).date()


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    """A store of this test's own, the one the app opens (same URL), empty at the start."""
    return own_store


def _domain_days(store: HistoryStore, domains: tuple[str, ...], days: int = 40) -> None:
    for domain in domains:
        store.watchlist.watch(ACCOUNT, "domain", domain)
        for back in range(days):
            day = TODAY - timedelta(days=back)
            store.snapshots.record_lookup(ACCOUNT, lookup_on(domain, day), day, "job")


class _Records(logging.Handler):
    """The messages logged to it."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _table(at: AppTest, column: str) -> pd.DataFrame:
    """The first table on the page with this column (a table's key is not readable in AppTest)."""
    found = [frame.value for frame in at.dataframe if column in frame.value.columns]
    assert found, f"no table with a {column} column"
    return found[0]


def _sample(*links: tuple[str, str, float]) -> TrustMap:
    return TrustMap(
        site=MapSite(domain=MINE, dr=40),
        total_domains=len(links),
        domains=[ReferringDomain(domain=d, dr=30, status=s, spam_score=spam) for d, s, spam in links],
    )


def test_domain_trends_show_your_site_against_a_competitor_and_never_seed_demo_data(
    store: HistoryStore,
) -> None:
    _domain_days(store, (MINE, RIVAL))
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    assert set(at.multiselect(key="history_domains").value) == {MINE, RIVAL}
    charts = at.get("plotly_chart")
    assert len(charts) == 2  # DR/TrueDR side by side, and traffic
    assert "Week over week" in shown_text(at)
    assert "Demo history" not in shown_text(at)
    assert not store.snapshots.has_demo_rows(ACCOUNT)  # Live mode: never seeded

    at.segmented_control(key="history_period").set_value("30 days").run()
    assert not at.exception
    weekly = _table(at, "week_ending")
    assert set(weekly["domain"]) == {MINE, RIVAL}
    assert weekly["week_ending"].min() >= TODAY - timedelta(days=36)
    assert weekly["week_ending"].max() == TODAY  # the week under way is never dated in the future
    said = shown_text(at)
    assert "moves of 2 points or more" in said or "nothing is ringed" in said  # what the rings mean


def test_trust_map_churn_between_two_snapshots(store: HistoryStore) -> None:
    store.watchlist.watch(ACCOUNT, "domain", MINE)
    before = _sample(("a.com", "live", 10), ("b.com", "live", 10), ("c.com", "live", 10))
    after = _sample(("a.com", "lost", 10), ("c.com", "live", 10), ("spammy.com", "live", 85))
    store.snapshots.record_trust_map(ACCOUNT, before, TODAY - timedelta(days=31), "job")
    store.snapshots.record_trust_map(ACCOUNT, after, TODAY, "job")

    at = open_page(PAGE, history_tab="Trust Map churn")
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="history_churn_domain").select(MINE).run()
    assert metric(at, "Appeared") == "1"
    assert metric(at, "Disappeared") == "1"
    assert metric(at, "New spam risk") == "1"
    assert metric(at, "Live → lost") == "1"
    table = _table(at, "referring_domain")
    assert set(zip(table["change"], table["referring_domain"], strict=True)) == {
        ("appeared", "spammy.com"),
        ("disappeared", "b.com"),
        ("new spam risk", "spammy.com"),
        ("live → lost", "a.com"),
    }


def test_trust_map_churn_counts_no_loss_for_a_domain_that_may_be_a_skipped_row(store: HistoryStore) -> None:
    """The later map's fourth row was a spreadsheet formula, not a domain name (``tests.hostile_map``):
    b.com, missing from it, may be that row, so it is not counted as disappeared, and the tab says why."""
    store.watchlist.watch(ACCOUNT, "domain", MINE)
    before = _sample(("a.com", "live", 10), ("b.com", "live", 10), ("c.com", "live", 10))
    rows = [{"domain": d, "dr": 30, "status": "live", "spamScore": 10} for d in ("a.com", "c.com")]
    after = TrustMap.model_validate({"site": {"domain": MINE}, "domains": [*rows, HOSTILE_ROW]})
    store.snapshots.record_trust_map(ACCOUNT, before, TODAY - timedelta(days=31), "job")
    store.snapshots.record_trust_map(ACCOUNT, after, TODAY, "job")

    at = open_page(PAGE, history_tab="Trust Map churn")
    at.selectbox(key="history_churn_domain").select(MINE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert metric(at, "Disappeared") == "0"
    assert "disappeared" not in set(_table(at, "referring_domain")["change"])
    assert (
        f"1 referring domain missing from the sample of {TODAY:%b %d, %Y} is not counted as gone: 1 row of "
        "that day's Trust Map could not be used, and it may be among them."
    ) in as_read(shown_text(at))
    assert "held the same referring domains" not in shown_text(at)


def test_keyword_positions_of_your_site(store: HistoryStore) -> None:
    for back in range(20):
        day = TODAY - timedelta(days=back)
        store.snapshots.record_tracked(ACCOUNT, tracked_on(DEMO_KEY, MINE, day), day, "job")
    tracked = tracked_on(DEMO_KEY, MINE, TODAY)

    # Streamlit's warnings about a widget's value go to the server's log, where an operator reads them.
    warnings = _Records()
    policies = logging.getLogger("streamlit.elements.lib.policies")
    policies.addHandler(warnings)
    try:
        at = open_page(PAGE, history_tab="Keyword positions")
        at.run()
    finally:
        policies.removeHandler(warnings)
    assert not at.exception, [e.value for e in at.exception]
    assert warnings.messages == []
    assert at.selectbox(key="history_kw_site").value == MINE
    assert metric(at, "Keywords") == str(len(tracked.keywords))
    titles = [chart.proto.spec for chart in at.get("plotly_chart")]
    assert len(titles) == 2 and "Positions over time" in titles[0] and '"reversed"' not in titles[0]
    summary = _table(at, "best_position")
    assert {"best_position", "days_in_top_10"} <= set(summary.columns)
    assert (summary["days_recorded"] == 20).all()
    assert f"Positions on {TODAY:%b %d, %Y}, the latest recorded day." in shown_text(at)
    assert "Above the line your site is that many points short" in shown_text(at)  # the gap explained


def test_the_watchlist_adds_and_removes_competitors(store: HistoryStore) -> None:
    at = open_page(PAGE, history_tab="Watchlist")
    assert not at.exception, [e.value for e in at.exception]
    at.text_input(key="history_add_text").input(f"https://www.{RIVAL.capitalize()}/pricing")
    at.button(key="FormSubmitter:history_add-Add to watchlist").click().run()
    assert not at.exception
    assert store.watchlist.is_watched(ACCOUNT, "domain", RIVAL)
    said = as_read(shown_text(at))  # as read, unescaped
    assert f"Watching {RIVAL}: today's DR and Trust Map recorded" in said
    # Watching records at once: the History of a new watch is never empty.
    assert len(store.queries.domain_history(ACCOUNT, [RIVAL])) == 1 and store.queries.trust_map_days(
        ACCOUNT, RIVAL
    )
    listed = _table(at, "origin")
    assert RIVAL in set(listed["subject"])
    assert listed.loc[listed["subject"] == RIVAL, "origin"].item() == "Added by your team"
    own = listed[listed["origin"] == "Your site"]
    assert set(own["subject"]) == set(ACCOUNTS[DEMO_KEY].sites)  # own sites come from the site list

    at.selectbox(key="history_remove").select(f"{RIVAL} (domain)")
    button(at, "Remove").click().run()
    assert not store.watchlist.is_watched(ACCOUNT, "domain", RIVAL)


def test_a_domain_the_service_does_not_list_is_refused_at_once_and_never_watched(
    store: HistoryStore,
) -> None:
    # Before, it was watched and the daily job then failed on it every day.
    unlisted = new_domain("watch-unlisted-", listed=False)
    at = open_page(PAGE, history_tab="Watchlist")
    at.text_input(key="history_add_text").input(unlisted)
    at.button(key="FormSubmitter:history_add-Add to watchlist").click().run()
    assert not at.exception
    assert not store.watchlist.is_watched(ACCOUNT, "domain", unlisted)
    assert f"Not watched: {unlisted} is not a listed site on VerifiedDR" in as_read(shown_text(at))


#: A keyword one of the demo key's own sites ranks for in the sandbox's top 10.
RANKED_KEYWORD = "cold brew coffee"


def _own_site_ranking_for(keyword: str) -> tuple[str, int]:
    """The first of the demo key's own sites in ``keyword``'s top 10 on the sandbox's day, and its place."""
    places = {row.domain: row.position for row in serp_on(keyword)}
    site = next(s for s in ACCOUNTS[DEMO_KEY].sites if s in places)
    return site, places[site]


def test_a_keyword_is_watched_for_the_site_picked_and_its_position_recorded_at_once(
    store: HistoryStore,
) -> None:
    keyword = RANKED_KEYWORD
    site, place = _own_site_ranking_for(keyword)
    at = open_page(PAGE, history_tab="Watchlist")
    at.radio(key="history_add_kind").set_value("Keyword")
    at.text_input(key="history_add_text").input(keyword)
    at.selectbox(key="history_add_site").set_value(site)
    at.button(key="FormSubmitter:history_add-Add to watchlist").click().run()
    assert not at.exception
    assert store.watchlist.is_watched(ACCOUNT, "keyword", keyword, site=site)
    assert store.queries.keyword_history(ACCOUNT, site)["position"].tolist() == [place]
    listed = _table(at, "origin")
    assert listed.loc[listed["subject"] == keyword, "site"].tolist() == [site]


def test_watch_on_the_domain_overview_records_today_and_links_to_history(store: HistoryStore) -> None:
    at = open_page(domain=RIVAL)
    assert not at.exception
    clicked_on = _utc_today()  # the page's own today, read when it acts (a run may cross midnight)
    button(at, "Watch").click().run()
    assert not at.exception
    assert store.watchlist.is_watched(ACCOUNT, "domain", RIVAL)
    rows = store.queries.domain_history(ACCOUNT, [RIVAL], clicked_on)
    assert len(rows) == 1 and pd.Timestamp(rows["day"].iloc[0]).date() in {clicked_on, _utc_today()}
    assert button(at, "Stop watching")
    links = [link for link in at.get("page_link") if link.proto.page.endswith("history")]
    assert links and f"History of {RIVAL}" in as_read(links[0].proto.label)


def test_reads_of_watched_subjects_become_history_once_a_day(store: HistoryStore) -> None:
    store.watchlist.watch(ACCOUNT, "domain", RIVAL)
    read_on = _utc_today()
    at = open_page("views/trust-map.py", domain=RIVAL)
    assert not at.exception
    open_page(domain=RIVAL)  # the lookup of a watched domain, read anyway
    open_page(domain="hubspot.com")  # not watched: not kept
    history_reads.wait_for_recording()
    rows = store.queries.domain_history(ACCOUNT, [RIVAL, "hubspot.com"], None)
    assert list(rows["domain"]) == [RIVAL] and list(rows["source"]) == ["browsing"]
    assert store.queries.trust_map_days(ACCOUNT, RIVAL) in ([read_on], [_utc_today()])


def _page_on_database(monkeypatch: pytest.MonkeyPatch, url: str) -> AppTest:
    """The History page with its store at ``url`` (a database it cannot reach), after its first run."""
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", url)
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_unreachable_database_is_said_in_plain_words_and_pages_still_work(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _page_on_database(monkeypatch, UNREACHABLE)
    said = shown_text(at)
    assert "History is unavailable" in said and "127.0.0.1" in said
    assert not PASSWORD.search(said)  # the password never shows (".streamlit/secrets.toml" may)

    overview = open_page(domain=RIVAL)
    assert not overview.exception
    assert metric(overview, "DR") != "not available"  # the page works
    assert "History is unavailable" in shown_text(overview) and not PASSWORD.search(shown_text(overview))
    assert not [b for b in overview.button if b.label == "Watch"]


#: An unreachable database whose credentials are in the query, as psycopg also accepts them.
QUERY_SECRETS_URL = "postgresql://u@127.0.0.1:1/x?password=Qpass-5123&sslpassword=Kpass-6061&sslmode=prefer"


def test_an_unreachable_database_never_shows_a_password_given_in_the_query(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _page_on_database(monkeypatch, QUERY_SECRETS_URL)
    warning = "\n".join(w.value for w in at.warning)
    caption = "\n".join(c.value for c in at.caption)
    assert "History is unavailable" in warning and "127.0.0.1:1/x" in caption
    for shown in (warning, caption, shown_text(at)):
        assert "Qpass" not in shown and "Kpass" not in shown, shown
    assert "sslmode=prefer" in caption  # what is not a secret stays readable


def test_a_link_to_an_unwatched_domain_opens_it_and_offers_to_watch_it(store: HistoryStore) -> None:
    at = open_page(PAGE, domain="HubSpot.com", history_tab="Domain trends")
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key="history_domains").value == ["hubspot.com"]
    assert "hubspot.com is not watched" in as_read(shown_text(at))
    button(at, "Watch").click().run()
    assert store.watchlist.is_watched(ACCOUNT, "domain", "hubspot.com")
    assert "is not watched" not in shown_text(at)


def test_a_database_that_breaks_after_it_was_opened_is_said_not_a_traceback(
    store: HistoryStore, tmp_path: Path
) -> None:
    _domain_days(store, (MINE, RIVAL), days=10)
    at = open_page(PAGE)
    assert len(at.get("plotly_chart")) == 2
    with sqlite3.connect(tmp_path / "history.sqlite3") as broken:  # someone drops a table under the app
        broken.execute("DROP TABLE domain_snapshots")
    at.segmented_control(key="history_period").set_value("All").run()  # a read the cache does not hold
    assert not at.exception, [e.value for e in at.exception]
    assert "History is unavailable" in shown_text(at)


def test_best_ever_is_the_same_whatever_the_period(store: HistoryStore) -> None:
    """#2 forty-five days ago, #8 every other day: the 30-day period holds no day at #2."""
    best_day = TODAY - timedelta(days=45)
    for back in range(60):
        day = TODAY - timedelta(days=back)
        places = {"crm software": 2 if day == best_day else 8}
        store.snapshots.record_tracked(ACCOUNT, samples.tracked(slug_for(MINE), places), day, "job")
    at = open_page(PAGE, history_tab="Keyword positions")
    assert not at.exception, [e.value for e in at.exception]
    for period in ("90 days", "30 days", "All"):
        at.segmented_control(key="history_kw_period").set_value(period).run()
        assert not at.exception, [e.value for e in at.exception]
        row = _table(at, "best_position").set_index("keyword").loc["crm software"]
        assert (row["best_position"], row["best_day"]) == (2, best_day), period
        assert metric(at, "Ever in the top 10") == "1"


def _x_range(at: AppTest) -> tuple[pd.Timestamp, pd.Timestamp]:
    layout = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    low, high = layout["xaxis"]["range"]
    return pd.Timestamp(low), pd.Timestamp(high)


def test_one_recorded_day_says_whether_it_is_the_first_and_draws_no_day_to_come(store: HistoryStore) -> None:
    store.watchlist.watch(ACCOUNT, "domain", RIVAL)
    for domain, day in ((MINE, TODAY - timedelta(days=100)), (MINE, TODAY), (RIVAL, TODAY)):
        store.snapshots.record_lookup(ACCOUNT, lookup_on(domain, day), day, "job")
    at = open_page(PAGE)  # 90 days: one day of both, but your site has an older one
    assert not at.exception, [e.value for e in at.exception]
    assert f"Only {TODAY:%b %d, %Y} is recorded in this period" in shown_text(at)

    at.multiselect(key="history_domains").set_value([RIVAL]).run()  # watched today
    assert f"{TODAY:%b %d, %Y} is the first recorded day" in shown_text(at)
    low, high = _x_range(at)
    assert low <= pd.Timestamp(TODAY) < high < pd.Timestamp(TODAY + timedelta(days=1))  # no day to come


def test_a_keyword_watched_before_sites_were_recorded_gets_its_site_picked_and_its_old_rows_stay_apart(
    store: HistoryStore,
) -> None:
    keyword = RANKED_KEYWORD
    site, place = _own_site_ranking_for(keyword)
    store.watchlist.watch(ACCOUNT, "keyword", keyword)  # as a watch made before keywords had a site
    at = open_page(PAGE, history_tab="Watchlist")
    assert not at.exception
    listed = _table(at, "origin")
    assert listed.loc[listed["subject"] == keyword, "site"].tolist() == ["site unknown"]
    at.selectbox(key="history_pick_keyword").set_value(keyword)
    at.selectbox(key="history_pick_site").set_value(site)
    button(at, "Set its site").click().run()
    assert not at.exception
    assert store.watchlist.is_watched(ACCOUNT, "keyword", keyword, site=site)
    assert not store.watchlist.is_watched(ACCOUNT, "keyword", keyword, site="")
    assert store.queries.keyword_history(ACCOUNT, site)["position"].tolist() == [place]  # measured at once
    assert f"Watching “{keyword}” for {site}" in as_read(shown_text(at))


def test_a_history_link_opens_the_tab_it_names_whichever_tab_the_session_saw_last(
    store: HistoryStore,
) -> None:
    """Keyword positions looked at earlier in the session, then a domain's "History of" link on another
    page: History opens on that domain's trends (it once reopened Keyword positions: Streamlit drops
    the link's tab from the address when it is the first tab, and the tab seen last won)."""
    at = open_page(PAGE, history_tab="Keyword positions")
    at.query_params.clear()
    at.switch_page("views/overview.py")
    at.run()
    at.query_params.clear()
    at.query_params["history_domain"] = "hubspot.com"
    at.query_params["history_tab"] = "Domain trends"
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key="history_domains").value == ["hubspot.com"]
