"""Tracking the keywords chosen on the Opportunities page, in AppTest against the session sandbox (Live
mode, the demo key) with the demo's history: a newcomer opens the page on northwind-coffee.com by its
address, chooses two rows, is told where the site's list stands before the click, clicks Track once,
and both keywords are tracked by the service (and on Tracked keywords) with one audit row each; a rerun,
a second click or a double click adds nothing again; a keyword tracked already is not sent; at the
limit only what fits is sent and then nothing; a viewer cannot; a site the service does not list as
yours cannot track."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.tracked import TRACKED_LIMIT
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text
from tests.apptest.opportunities_rows import (
    ACCOUNT,
    PAGE,
    SITE,
    SLUG,
    audit_rows,
    choose_rows,
    forged_click,
    fresh_rows,
    open_on_site,
    opportunities_table,
    posts,
    track_button,
    tracked,
)

VIEWERS = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}


@pytest.fixture
def store(demo_history: HistoryStore) -> HistoryStore:
    return demo_history


def test_two_chosen_rows_are_tracked_in_one_click_once_each_and_audited(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_on_site()
    before = tracked(live_env)
    rows, chosen = fresh_rows(at, live_env)
    choose_rows(at, rows)
    said = as_read(shown_text(at))
    assert f"{len(before)} of {TRACKED_LIMIT} tracked; 2 chosen, 2 not tracked yet." in said, said
    button = track_button(at)
    assert as_read(button.label) == f"Track for {SITE}" and not button.disabled
    assert posts(live_env) == 0

    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert tracked(live_env) == [*before, *chosen]
    assert posts(live_env) == 2
    rows_written = audit_rows(store)
    assert sorted(rows_written["target"]) == sorted(chosen)
    assert rows_written["outcome"].tolist() == ["sent", "sent"]
    said = as_read(shown_text(at))
    assert all(f"“{keyword}”: added — now tracked for {SITE}." in said for keyword in chosen), said

    at.run()  # a rerun sends nothing
    assert posts(live_env) == 2
    # Choosing the same keywords again: the list now holds them, so the button has nothing to send.
    keywords = list(opportunities_table(at)["keyword"])
    choose_rows(at, [keywords.index(keyword) for keyword in chosen])
    assert track_button(at).disabled
    assert as_read(track_button(at).help) == "Every chosen keyword is tracked already."
    said = as_read(shown_text(at))
    assert f"{len(before) + 2} of {TRACKED_LIMIT} tracked; 2 chosen, 0 not tracked yet." in said, said
    assert "Tracked already, not sent again:" in said
    forged_click(at)  # a click on it anyway (an editor's: Streamlit drops it)
    assert posts(live_env) == 2 and len(audit_rows(store)) == 2

    # Tracked keywords shows them.
    page = open_page("views/tracked-keywords.py", domain=SITE)
    assert not page.exception
    assert set(chosen) <= set(page.dataframe[0].value["keyword"])


def test_a_chosen_keyword_tracked_already_is_not_sent_and_is_said_so(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_on_site()
    keywords = list(opportunities_table(at)["keyword"])
    held = [i for i, keyword in enumerate(keywords) if keyword in tracked(live_env)]
    assert held, "the site's tracked keywords are in its list"
    rows, [new] = fresh_rows(at, live_env, count=1)
    choose_rows(at, [held[0], *rows])
    said = as_read(shown_text(at))
    assert f"Tracked already, not sent again: “{keywords[held[0]]}”." in said, said
    track_button(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert posts(live_env) == 1
    assert audit_rows(store)["target"].tolist() == [new]


def _double_click_then_send() -> None:
    """Two clicks on Track for two keywords arrive before the run that sends them."""
    import streamlit as st

    from components.core.cache.connection import current_connection
    from components.core.writes import batch

    slug = "northwind-coffee-com"
    keywords = ["double click one", "double click two"]
    if "clicked" not in st.session_state:
        st.session_state["clicked"] = True
        for _ in range(2):
            batch.request_writes(
                "probe",
                "add_tracked_keyword",
                [(slug, k) for k in keywords],
                keywords,
                [("tracked_keywords", slug)],
            )
    outcome = batch.take_outcome("probe")
    if outcome is not None:
        st.write(f"sent {len(outcome.sent)}")
    batch.run_requested_writes(current_connection(), "probe")


def test_a_double_click_sends_each_keyword_once(store: HistoryStore, live_env: SandboxServer) -> None:
    at = AppTest.from_function(_double_click_then_send, default_timeout=30).run()
    assert not at.exception, [e.value for e in at.exception]
    at.run()
    assert posts(live_env) == 2
    assert audit_rows(store)["outcome"].tolist() == ["sent", "sent"]


def _click_sent_then_clicked_again() -> None:
    """A click on Track for two keywords is sent, then a second click on the same two arrives while the
    list the page drew is still the one from before the first (a double click's second half)."""
    import streamlit as st

    from components.core.cache.connection import current_connection
    from components.core.writes import batch

    slug = "northwind-coffee-com"
    keywords = ["second click one", "second click two"]
    if st.session_state.get("click"):  # set by the test: a click in this run
        st.session_state["click"] = False
        batch.request_writes(
            "probe",
            "add_tracked_keyword",
            [(slug, k) for k in keywords],
            keywords,
            [("tracked_keywords", slug)],
        )
    outcome = batch.take_outcome("probe")
    if outcome is not None:
        st.write(" ".join("again" if sent.duplicate else "sent" for _keyword, sent in outcome.sent))
    batch.run_requested_writes(current_connection(), "probe")


def test_a_second_click_right_after_is_answered_from_the_first_for_every_keyword(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = AppTest.from_function(_click_sent_then_clicked_again, default_timeout=30)
    at.session_state["click"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [m.value for m in at.markdown] == ["sent sent"]
    at.session_state["click"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [m.value for m in at.markdown] == ["again again"]  # the first keyword too, not only the last
    assert posts(live_env) == 2
    assert audit_rows(store)["outcome"].tolist() == ["sent", "sent"]


def test_at_the_limit_only_what_fits_is_sent_and_then_nothing(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        for i in range(TRACKED_LIMIT - 1 - len(client.tracked_keywords(SLUG).keywords)):
            client.add_tracked_keyword(SLUG, f"limit filler keyword {i}")
    at = open_on_site()
    rows, [first, second] = fresh_rows(at, live_env)
    choose_rows(at, rows)
    said = as_read(shown_text(at))
    limit = TRACKED_LIMIT
    assert f"{limit - 1} of {limit} tracked; 2 chosen, 2 not tracked yet." in said, said
    assert (
        f"Would not fit, not sent: “{second}” — the site tracks {limit - 1} of {limit} keywords, its limit, "
        "room for 1 more keyword." in said
    ), said
    sent_before = posts(live_env)
    track_button(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert posts(live_env) == sent_before + 1
    assert first in tracked(live_env) and second not in tracked(live_env)
    assert audit_rows(store)["target"].tolist() == [first]
    # Now at the limit: the button says why it cannot add.
    rows, _ = fresh_rows(at, live_env, count=1)
    choose_rows(at, rows)
    button = track_button(at)
    assert button.disabled and f"tracks {limit} of {limit} keywords, its limit" in as_read(button.help)


def test_a_viewer_sees_track_disabled_with_the_reason_and_a_forged_click_is_refused_and_audited(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = open_page(PAGE, email="bob@acme.com", access=VIEWERS, site=SITE)
    assert not at.exception, [e.value for e in at.exception]
    rows, chosen = fresh_rows(at, live_env)
    choose_rows(at, rows)
    reason = "Editors only: you can read everything here; ask it@acme.com to change things."
    button = track_button(at)
    assert button.disabled and as_read(button.help) == reason
    assert as_read(shown_text(at)).count(reason) == 1  # said once for both buttons
    forged_click(at)
    assert not at.exception, [e.value for e in at.exception]
    assert posts(live_env) == 0
    rows_written = audit_rows(store)
    assert rows_written[["person", "target", "outcome"]].values.tolist() == [
        ["bob@acme.com", chosen[0], "refused_by_role"]
    ]


def test_a_site_the_service_does_not_list_as_yours_cannot_track(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    stranger = "rival-roasters.com"
    store.watchlist.watch(ACCOUNT, "domain", stranger, origin="own")  # the history calls it yours
    at = open_page(PAGE, site=stranger)
    assert not at.exception, [e.value for e in at.exception]
    choose_rows(at, [0])
    button = track_button(at)
    assert button.disabled
    assert f"{stranger} is not one of the sites the service lists for your key" in as_read(button.help)
    assert posts(live_env) == 0
