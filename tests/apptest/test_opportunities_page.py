"""The Opportunities page in AppTest, in Live mode against the session sandbox, its store a temporary
SQLite file holding the demo's history: one of your sites' keywords ranked with the parts of their
score, the cost of the missing top 10s said before any keyword report is spent and exactly that many
spent by the button, the chosen keywords watched for the site (audited), a viewer who cannot, and a
failed read of the suggestions said in words."""

from __future__ import annotations

from unittest import mock

import pandas as pd
import pytest

import components.opportunities.widgets.reads as page_reads
from analysis.market import NON_BRAND
from client.settings import key_fingerprint
from components.core.history import reads as history_reads
from components.opportunities.widgets.choice import SITE_KEY, TARGET_KEY
from components.opportunities.widgets.reads import READ_KEY
from components.opportunities.widgets.table import GAP_KEY, GROUP_KEY, STRIKING_KEY
from components.opportunities.widgets.watching import WATCH_KEY
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text
from tests.apptest.opportunities_rows import choose_rows, opportunities_table

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = sorted(ACCOUNTS[DEMO_KEY].sites)[0]
PAGE = "views/opportunities.py"
REPORT_PATH = "/api/v1/keywords"


@pytest.fixture
def store(demo_history: HistoryStore) -> HistoryStore:
    """A copy of the demo's history of this test's own, the one the app opens."""
    return demo_history


def _ranked(table: pd.DataFrame) -> None:
    """Highest score first, keywords without a score last; each score made of its shown parts."""
    scores = table["score"]
    known = scores.notna()
    assert known.any() and list(known) == sorted(known, reverse=True)  # the unscored last
    assert scores[known].is_monotonic_decreasing, scores.tolist()
    parts = table[known]
    expected = 100 * parts["clicks_gained"] / parts["difficulty"].clip(lower=1.0)
    assert (expected - parts["score"]).abs().max() < 1e-6


def test_the_list_is_ranked_with_the_parts_of_its_score_striking_distance_first(store: HistoryStore) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=SITE_KEY).value == MINE
    assert at.selectbox(key=TARGET_KEY).value == 3
    table = opportunities_table(at)
    _ranked(table)
    assert (table["ctr_target"] == table["ctr_target"].iloc[0]).all()
    at.button(key=READ_KEY).click().run()
    _ranked(opportunities_table(at))
    at.toggle(key=STRIKING_KEY).set_value(True).run()
    striking = opportunities_table(at)
    assert striking["striking_distance"].all() and len(striking) >= 2
    assert striking["position"].between(4, 20).all()
    assert pd.notna(striking["score"].iloc[0])
    _ranked(striking)
    # Another target: the clicks are counted for reaching it.
    at.selectbox(key=TARGET_KEY).set_value(1).run()
    assert not at.exception, [e.value for e in at.exception]
    first = opportunities_table(at)
    assert (first["ctr_target"] > striking["ctr_target"].iloc[0]).all()
    # The watched keywords say when they become winnable, in words.
    at.toggle(key=STRIKING_KEY).set_value(False).run()
    everything = opportunities_table(at)
    watched = everything[everything["top10_from"] == "recorded top 10"]
    assert len(watched) and (watched["median_words"] != "").all()
    # The largest gap, then a keyword group (as the Market page names them).
    at.number_input(key=GAP_KEY).set_value(10).run()
    narrowed = opportunities_table(at)
    assert len(narrowed) < len(everything) and (narrowed["gap"] <= 10).all()
    at.number_input(key=GAP_KEY).set_value(None).run()
    at.selectbox(key=GROUP_KEY).set_value(NON_BRAND).run()
    assert not at.exception, [e.value for e in at.exception]
    assert set(opportunities_table(at)["keyword"]) <= set(everything["keyword"])
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download CSV" in labels and "Raw CSV" in labels


def _reports_spent(sandbox: SandboxServer) -> int:
    return sum(1 for _method, path, _query, _key in sandbox.state.request_log if path == REPORT_PATH)


def test_the_cost_is_said_before_any_report_is_spent_and_the_button_spends_exactly_that(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    before = opportunities_table(at)
    missing = int((before["top10_from"] == "").sum())
    assert missing > 0
    said = f"{missing} keywords have no recorded top 10: {missing} keyword-report calls."
    assert said in as_read(shown_text(at))
    assert _reports_spent(live_env) == 0
    at.button(key=READ_KEY).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _reports_spent(live_env) == missing
    after = opportunities_table(at)
    assert (after["top10_from"] != "").all()
    assert "keyword-report call" not in shown_text(at)
    at.run()  # a rerun spends nothing again
    assert _reports_spent(live_env) == missing


def _watched(store: HistoryStore) -> set[str]:
    return {i.subject for i in store.watchlist.entries(ACCOUNT) if i.kind == "keyword" and i.site == MINE}


def test_watching_two_chosen_keywords_watches_them_for_the_site_and_audits_each(store: HistoryStore) -> None:
    at = open_page(PAGE)
    table = opportunities_table(at)
    fresh = [i for i, keyword in enumerate(table["keyword"]) if keyword.lower() not in _watched(store)][:2]
    chosen = [str(table["keyword"].iloc[i]) for i in fresh]
    choose_rows(at, fresh)
    at.toggle(key=STRIKING_KEY).set_value(True).run()  # other rows: the choice does not carry over
    assert at.button(key=WATCH_KEY).disabled
    at.toggle(key=STRIKING_KEY).set_value(False).run()
    choose_rows(at, fresh)
    button = at.button(key=WATCH_KEY)
    assert as_read(button.label) == f"Watch for {MINE}" and not button.disabled
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert {keyword.lower() for keyword in chosen} <= _watched(store)
    rows = store.audit.events(ACCOUNT, operation="watch")
    assert rows["outcome"].tolist() == ["done", "done"]
    said = as_read(shown_text(at))
    assert all(f"Watching “{keyword}” for {MINE}" in said for keyword in chosen), said


def test_a_viewer_sees_the_watch_disabled_with_the_reason(store: HistoryStore) -> None:
    access = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}
    at = open_page(PAGE, email="bob@acme.com", access=access)
    assert not at.exception, [e.value for e in at.exception]
    choose_rows(at, [0, 1])
    reason = "Editors only: you can read everything here; ask it@acme.com to change things."
    button = at.button(key=WATCH_KEY)
    assert button.disabled and button.help == reason
    assert as_read(shown_text(at)).count(reason) == 1
    assert not at.button(key=READ_KEY).disabled  # reading costs no quota unit: viewers may read


def test_a_failed_read_of_the_suggestions_is_said_in_words_and_the_rest_of_the_list_stays(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    live_env.state.add_fault("keyword_suggestions", 503, key=DEMO_KEY, retry_after=60.0)
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    warnings = " ".join(str(w.value) for w in at.warning)
    assert "keyword suggestions could not be read" in as_read(warnings), warnings
    assert "Traceback" not in shown_text(at)
    assert len(opportunities_table(at))  # the tracked and watched keywords are still listed


def test_a_failed_keyword_report_is_named_on_its_row_and_summed_up_in_words(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_page(PAGE)
    missing = int((opportunities_table(at)["top10_from"] == "").sum())
    live_env.state.add_fault("keyword_report", "nonjson", key=DEMO_KEY, times=1)
    at.button(key=READ_KEY).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _reports_spent(live_env) == missing
    table = opportunities_table(at)
    failed = table[table["top10_from"] == ""]
    assert len(failed) == 1 and failed["problem"].iloc[0].startswith("top 10 not read (")
    warnings = as_read(" ".join(str(w.value) for w in at.warning))
    assert "1 top 10 could not be read" in warnings and failed["problem"].iloc[0] in warnings
    assert "Traceback" not in shown_text(at)
    at.run()  # the failure stays on its row for the session
    assert (opportunities_table(at)["problem"] != "").sum() == 1


def test_what_reaching_the_target_is_worth_shows_the_visibility_and_share_gained(store: HistoryStore) -> None:
    # The site's watched keywords (their recorded top 10s): visibility and share of voice if it stood at
    # the target in each, and how much more than now (the arithmetic is held in the unit tests).
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m for m in at.metric}
    assert {"Visibility", "Share of voice"} <= set(metrics), shown_text(at)
    assert f"If {MINE} reached position 3" in as_read(shown_text(at))
    for label in ("Visibility", "Share of voice"):
        then = float(str(metrics[label].value).rstrip(" %"))
        gained = float(str(metrics[label].delta).split()[0])
        assert 0 <= then <= 100 and gained >= 0, (label, metrics[label].value, metrics[label].delta)


def test_suggestions_sent_with_markup_are_listed_inert_and_cost_no_call(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    # Every string of the answer carries markup, which makes some keywords too long to be asked about:
    # the page lists them, counts them apart from the calls, and spends none on them.
    live_env.state.add_fault("keyword_suggestions", "hostile", key=DEMO_KEY)
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    said = as_read(shown_text(at))
    assert "the service cannot be asked about (empty or too long)" in said, said
    assert len(opportunities_table(at)) and _reports_spent(live_env) == 0


def test_a_rerun_reads_the_sites_history_once_and_a_watch_reads_it_afresh(store: HistoryStore) -> None:
    # What the history holds of the site's keywords (its rows, the projections fitted to them) is kept for
    # the page's reruns; watching a keyword changes it, so the next run reads it again and shows it watched.
    with mock.patch.object(page_reads, "recorded_keywords", wraps=page_reads.recorded_keywords) as reads:
        at = open_page(PAGE)
        history_reads.wait_for_recording()  # the tracked keywords the first run read are now recorded
        at.run()
        settled = reads.call_count
        at.toggle(key=STRIKING_KEY).set_value(True).run()
        at.toggle(key=STRIKING_KEY).set_value(False).run()
        assert reads.call_count == settled
        table = opportunities_table(at)
        fresh = [i for i, word in enumerate(table["keyword"]) if word.lower() not in _watched(store)][:1]
        chosen = str(table["keyword"].iloc[fresh[0]])
        choose_rows(at, fresh)
        at.button(key=WATCH_KEY).click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert reads.call_count == settled + 1, "a watch must be seen at once"
        row = opportunities_table(at).set_index("keyword").loc[chosen]
        assert row["median_words"] != "", "the keyword just watched says when it becomes winnable"


def test_a_link_opens_the_page_on_its_site_and_target_and_the_choice_is_kept_in_the_address(
    store: HistoryStore,
) -> None:
    site = "northwind-coffee.com"
    at = open_page(PAGE, site=f"https://www.{site}/shop", target="5")  # any spelling of your site
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=SITE_KEY).value == site and at.selectbox(key=TARGET_KEY).value == 5
    assert "not one of your sites" not in shown_text(at)
    assert f"If {site} reached position 5" in as_read(shown_text(at))
    # Both pickers write their value into the address (the browser keeps it there): ?site=…&target=5.
    assert at.selectbox(key=SITE_KEY).proto.query_param_key == "site"
    assert at.selectbox(key=TARGET_KEY).proto.query_param_key == "target"


def test_a_link_to_a_site_not_yours_or_a_bad_target_falls_back_with_words(store: HistoryStore) -> None:
    at = open_page(PAGE, site="stripe.com", target="42")
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=SITE_KEY).value == MINE and at.selectbox(key=TARGET_KEY).value == 3
    said = as_read(shown_text(at)).replace("**", "")
    assert (
        f"stripe.com is not one of your sites, so the link cannot open its opportunities. Showing {MINE}"
        in said
    )
    assert (
        "The link's target position “42” is not one of positions 1 to 10: "
        "the clicks are counted for position 3" in said
    )
    assert len(opportunities_table(at))  # the page still works, on your first site
