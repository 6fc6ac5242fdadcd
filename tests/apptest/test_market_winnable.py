"""The Market page's When winnable tab in AppTest, in Live mode against the session sandbox: on the demo
history the app seeds (as a newcomer on the sandbox sees it), each keyword watched for a site with when
its site's DR reaches the top 10's median and lowest DR in words, the CSV of the same rows, and one
keyword's charts; on a history shorter than 8 weeks, that it is too short and how much is recorded."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pandas as pd
from streamlit.testing.v1 import AppTest

from analysis.opportunities.outlook import outlook_table, outlooks
from analysis.opportunities.winnable import MIN_WEEKS
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from components.core.ui.tables import column_labels, readable_frame, safe_csv
from components.market.widgets.winnable import KEYWORD_KEY, WINNABLE_CONFIG, WINNABLE_TAB
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from sandbox.demo_history import keyword_report_on, lookup_on
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
TODAY = datetime.now(UTC).date()
PAGE = "views/market.py"
#: The sentences a marketer reads (``analysis.opportunities.words``), never a state's name.
SENTENCES = (
    "Within reach now",
    "In about ",
    "In less than a month",
    "Not at the current pace — ",
    "Not within ",
    "Too uncertain to say yet — ",
    "Not enough history yet (",
)


def _table(at: AppTest) -> pd.DataFrame:
    found = [frame.value for frame in at.dataframe if "median_when" in frame.value.columns]
    assert found, "no When winnable table"
    return found[0]


def _watched_pairs(store: HistoryStore) -> set[tuple[str, str]]:
    return {(i.site, i.subject) for i in store.watchlist.entries(ACCOUNT) if i.kind == "keyword" and i.site}


def test_each_watched_keyword_says_when_it_becomes_winnable_with_a_csv_and_a_chart(
    own_store: HistoryStore,
) -> None:
    seed_demo_history(own_store, ACCOUNT, DEMO_KEY, TODAY)
    at = open_page(PAGE, market_tab=WINNABLE_TAB)
    assert not at.exception, [e.value for e in at.exception]
    table = _table(at)
    assert set(zip(table["site"], table["keyword"], strict=True)) == _watched_pairs(own_store)
    for column in ("median_when", "lowest_when"):
        for words in table[column]:
            assert words.startswith(SENTENCES), words
            assert "_" not in words, words
    # Within reach first, then the nearest months, then not at this pace, too uncertain, too little
    # history (against the median).
    rank = {0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 4}
    order = [rank[next(i for i, s in enumerate(SENTENCES) if w.startswith(s))] for w in table["median_when"]]
    assert order == sorted(order) and len(set(order)) > 1, table["median_when"].tolist()
    stated = table["median_dates"].astype(str).str.startswith("around ")
    assert table.loc[stated, "median_when"].str.startswith("In ").all()
    assert table["site_dr"].notna().all() and table["median_dr"].notna().all()
    _same_as_in_memory(table, own_store)

    # A link to each site's Opportunities list.
    sites = sorted(set(table["site"]))
    assert _opportunity_links(at) == [(f"See the opportunities of {s}", f"site={s}") for s in sites]

    # The CSV: the same rows under the table's labels.
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download CSV" in labels and "Raw CSV" in labels
    csv = pd.read_csv(io.BytesIO(safe_csv(readable_frame(table, column_labels(WINNABLE_CONFIG), None))))
    assert list(csv.columns[:3]) == ["Site", "Keyword", "Your DR now"]
    assert "Reaching the lowest DR (first foothold)" in csv.columns
    assert csv["Keyword"].tolist() == table["keyword"].tolist()

    # Choosing a keyword draws its two charts: against the median and the lowest DR.
    site, keyword = table["site"].iloc[-1], table["keyword"].iloc[-1]
    box = at.selectbox(key=KEYWORD_KEY)
    assert box.options[0] == f"{table['keyword'].iloc[0]} (watched for {table['site'].iloc[0]})"
    at = box.select((site, keyword)).run()
    assert not at.exception, [e.value for e in at.exception]
    charts = at.get("plotly_chart")
    assert len(charts) == 2
    titles = [str(chart.proto.spec) for chart in charts]
    assert all(keyword in title for title in titles)
    assert "median DR" in titles[0] and "lowest DR" in titles[1]


def test_a_history_shorter_than_8_weeks_says_so_with_the_weeks_recorded(own_store: HistoryStore) -> None:
    keywords = ["cookie free analytics", "privacy analytics"]
    for keyword in keywords:
        own_store.watchlist.watch(ACCOUNT, "keyword", keyword, site=MINE)
    own_store.watchlist.watch(ACCOUNT, "domain", MINE)
    for back in range(20):
        day = TODAY - timedelta(days=back)
        own_store.snapshots.record_lookup(ACCOUNT, lookup_on(MINE, day), day, "job", MINE)
        for keyword in keywords:
            own_store.snapshots.record_keyword_report(
                ACCOUNT, keyword_report_on(keyword, day, MINE), day, "job", MINE, keyword
            )
    at = open_page(PAGE, market_tab=WINNABLE_TAB)
    assert not at.exception, [e.value for e in at.exception]
    table = _table(at)
    assert sorted(table["keyword"]) == sorted(keywords)
    short = f"Not enough history yet (needs at least {MIN_WEEKS} weeks; 2 recorded)"
    assert set(table["median_when"]) == {short} and set(table["lowest_when"]) == {short}
    assert "No DR of" not in shown_text(at)
    assert len(at.get("plotly_chart")) == 2  # the charts say it too, in words


def test_for_one_sites_keywords_the_table_leaves_the_site_out(own_store: HistoryStore) -> None:
    seed_demo_history(own_store, ACCOUNT, DEMO_KEY, TODAY)
    at = open_page(PAGE, market_tab=WINNABLE_TAB, market_site=MINE)
    assert not at.exception, [e.value for e in at.exception]
    table = _table(at)
    assert "site" not in table.columns
    assert set(table["keyword"]) == {k for s, k in _watched_pairs(own_store) if s == MINE}
    # What to push on first: the site's Opportunities list, one click away.
    assert _opportunity_links(at) == [(f"See the opportunities of {MINE}", f"site={MINE}")]


def _same_as_in_memory(table: pd.DataFrame, store: HistoryStore) -> None:
    """The table the page computed at the database is the one the definition gives from every top-10 row
    of the history read into memory (``outlooks``)."""
    pairs = sorted(_watched_pairs(store))
    domains = store.queries.domain_history(ACCOUNT, sorted({site for site, _ in pairs}), None)
    expected = outlook_table(outlooks(domains, store.queries.serp_history(ACCOUNT, None), pairs))
    columns = list(expected.columns)
    pd.testing.assert_frame_equal(
        table[columns].reset_index(drop=True), expected, check_exact=False, rtol=0, atol=1e-9
    )


def _opportunity_links(at: AppTest) -> list[tuple[str, str]]:
    return [
        (as_read(link.proto.label), link.proto.query_string)
        for link in at.get("page_link")
        if link.proto.page == "opportunities"
    ]
