"""Keyword research, suggestions and tracked keywords in Streamlit's AppTest, as a user sees them."""

from __future__ import annotations

import json
import statistics

import pytest
from streamlit.testing.v1 import AppTest

from analysis.keywords.frames.report import gap_words, verdict
from analysis.text import escape_md
from analysis.wording import short_number
from client import ApiClient
from client.api import MAX_RETRY_AFTER_S
from client.errors import PaymentRequiredError
from client.inputs import slug_for
from components.core.nav import pages
from sandbox import DEMO_KEY, FREE_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.keyword_data import serp_on
from sandbox.suggestions import suggestions
from tests.apptest.app_pages import button, metric, open_page, shown_text
from tests.sandbox_picks import keyword_with_unknown_dr

RESEARCH = pages.KEYWORD_RESEARCH.file
SUGGESTIONS = pages.KEYWORD_SUGGESTIONS.file
TRACKED = pages.TRACKED_KEYWORDS.file
SITE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = slug_for(SITE)
FREE_SITE = ACCOUNTS[FREE_KEY].sites[0]
KEYWORDS_PATH = f"/api/v1/sites/{SLUG}/keywords"
NEW_KEYWORD = "server side tracking"


def _click(at: AppTest, label: str) -> AppTest:
    return button(at, label).click().run()


def _requests(server: SandboxServer, method: str, path: str) -> int:
    return sum(1 for m, p, _, _ in server.state.request_log if m == method and p == path)


# --- keyword research ---------------------------------------------------------------------------


def test_research_one_keyword_shows_the_top_10_chart_and_table(live_env: SandboxServer) -> None:
    at = open_page(RESEARCH, keyword="  Coffee   beans ")
    assert not at.exception
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.keyword_report("coffee beans")
    assert metric(at, "Median DR") == short_number(expected.median_dr)
    assert metric(at, "Min DR") == short_number(expected.min_dr)
    table = at.dataframe[0].value
    assert list(table["domain"]) == [r.domain for r in expected.results]
    assert len(at.get("plotly_chart")) == 1
    assert "Live SERP" in shown_text(at)  # the first ask of this keyword paid a live fetch
    assert not [m for m in at.metric if m.label == "Gap"]
    assert "Add your domain" in shown_text(at)


def test_reruns_and_page_switches_spend_no_research_call(live_env: SandboxServer) -> None:
    at = open_page(RESEARCH, keyword="coffee beans", domain=SITE)
    served = live_env.state.total_requests()
    at.run()
    at.switch_page(SUGGESTIONS).run()
    at.switch_page(RESEARCH).run()
    assert not at.exception
    assert _requests(live_env, "GET", "/api/v1/keywords") == 1
    assert live_env.state.total_requests() <= served + 1  # at most the suggestions read


def test_research_with_a_domain_shows_gap_tier_and_verdict(live_env: SandboxServer) -> None:
    keyword = "espresso machine"
    at = open_page(RESEARCH, keyword=keyword, domain=f"https://www.{SITE}/blog")
    assert not at.exception
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.keyword_report(keyword, SITE)
    user = expected.user
    assert user is not None and user.gap is not None
    assert metric(at, f"DR of {escape_md(SITE)}") == str(user.dr)
    assert metric(at, "Gap") == f"{user.gap:+g}"
    gap_card = next(m for m in at.metric if m.label == "Gap")
    assert gap_card.delta == gap_words(user.gap)  # the number said in words next to it
    assert metric(at, "Tier") == user.tier
    reading = verdict(expected)
    assert reading is not None
    callouts = {"success": at.success, "info": at.info, "warning": at.warning}[reading.level]
    assert any(escape_md(reading.headline) in c.value for c in callouts)
    assert "historical labels" in shown_text(at)
    links = {link.proto.label: link.proto.query_string for link in at.get("page_link")}
    assert links["Track this keyword"] == f"track=espresso+machine&domain={SITE}"  # your site, prefilled


def test_a_tracked_result_shows_in_words_never_as_a_slug(live_env: SandboxServer) -> None:
    keyword = "web analytics"
    assert any(r.domain == SITE and r.tracked_slug == SLUG for r in serp_on(keyword))  # the service's slug
    at = open_page(RESEARCH, keyword=keyword, domain=SITE)
    assert not at.exception
    table = at.dataframe[0]
    shown = list(table.proto.column_order)
    assert "tracked_slug" not in shown and "tracked_site" in shown
    rows = table.value
    assert rows.loc[rows["domain"] == SITE, "tracked_site"].tolist() == ["your site"]
    assert SLUG not in rows["tracked_site"].dropna().tolist()


def test_several_keywords_say_each_gap_in_words(live_env: SandboxServer) -> None:
    keywords = ["web analytics", "espresso machine"]
    at = open_page(RESEARCH, kw_compare="true", keywords="\n".join(keywords), domain=SITE)
    assert not at.exception
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        gaps = {k: client.keyword_report(k, SITE).user.gap for k in keywords}
    table = at.dataframe[0]
    words = dict(zip(table.value["keyword"], table.value["gap_words"], strict=True))
    assert words == {k: gap_words(g) for k, g in gaps.items()}
    assert any(w.endswith("above the median") for w in words.values())
    assert any(w.endswith("short of the median") for w in words.values())
    shown = list(table.proto.column_order)
    assert shown.index("gap_words") == shown.index("gap") + 1  # next to the number


def test_unknown_drs_are_shown_as_unknown_and_left_out_of_the_median(live_env: SandboxServer) -> None:
    keyword = keyword_with_unknown_dr("unknown dr probe")
    at = open_page(RESEARCH, keyword=keyword)
    assert not at.exception
    rows = serp_on(keyword)  # the sandbox's day's top 10
    known = [r.dr for r in rows if r.dr is not None]
    table = at.dataframe[0].value
    assert table["dr"].isna().tolist() == [r.dr is None for r in rows]  # missing, never 0
    assert metric(at, "Median DR") == short_number(statistics.median(known))
    assert metric(at, "Results with unknown DR") == str(len(rows) - len(known))
    assert "unknown DR" in shown_text(at)


def test_every_value_missing_still_renders(live_env: SandboxServer) -> None:
    live_env.state.add_fault("keyword_report", "nulls")
    at = open_page(RESEARCH, keyword="coffee beans", domain=SITE)
    assert not at.exception
    assert metric(at, "Median DR") == "not available"
    assert at.dataframe[0].value["dr"].isna().all()


def test_several_keywords_are_ranked_by_gap_and_one_failure_keeps_its_row(live_env: SandboxServer) -> None:
    keywords = ["web analytics", "espresso machine", "coffee beans", "seo tools"]
    live_env.state.add_fault("keyword_report", 500, times=1)  # the first keyword asked fails
    at = open_page(RESEARCH, kw_compare="true", keywords="\n".join(keywords), domain=SITE)
    assert not at.exception
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        gaps = {k: client.keyword_report(k, SITE).user.gap for k in keywords[1:]}
    table = at.dataframe[0].value
    assert list(table["keyword"]) == [*sorted(gaps, key=gaps.__getitem__), keywords[0]]
    assert table["error"].notna().tolist() == [False, False, False, True]
    assert len(at.get("plotly_chart")) == 1
    assert [b.proto.label for b in at.get("download_button")] == ["Download CSV", "Raw CSV"]


def test_402_gate_is_a_panel_with_the_upgrade_link(live_env: SandboxServer, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("VERIFIEDDR_API_KEY", FREE_KEY)
    at = open_page(RESEARCH, keyword="crm software")
    assert not at.exception
    with ApiClient(live_env.base_url, FREE_KEY) as client, pytest.raises(PaymentRequiredError) as gate:
        client.keyword_report("crm software")
    feature = gate.value.blocked_feature.replace("_", " ")
    assert any(feature in w.value.lower() and gate.value.required_plan in w.value for w in at.warning)
    assert [b.proto.url for b in at.get("link_button")] == [gate.value.upgrade_url]
    assert "growth program" in shown_text(at)


def test_429_says_when_to_try_again(live_env: SandboxServer) -> None:
    wait = MAX_RETRY_AFTER_S + 15  # longer than the client sleeps through: the page says when
    live_env.state.add_fault("keyword_report", 429, retry_after=wait)
    at = open_page(RESEARCH, keyword="coffee beans")
    assert not at.exception
    assert any("Too many requests" in w.value and f"{wait:g} seconds" in w.value for w in at.warning)
    assert "rate-limits more strictly" in shown_text(at)
    assert at.text_input(key="keyword").value == "coffee beans"  # the input is kept


def test_after_a_429_the_other_uncached_keywords_are_not_asked(live_env: SandboxServer) -> None:
    live_env.state.add_fault("keyword_report", 429, retry_after=MAX_RETRY_AFTER_S + 15)
    # Keywords no other test asks, so no answer cached earlier can stand in for a request.
    keywords = ["limiter probe one", "limiter probe two", "limiter probe three"]
    at = open_page(RESEARCH, kw_compare="true", keywords="\n".join(keywords))
    assert not at.exception
    assert _requests(live_env, "GET", "/api/v1/keywords") == 1  # only the first keyword was asked
    table = at.dataframe[0].value
    assert table["error"].str.contains("Not asked").tolist() == [False, True, True]


# --- suggestions --------------------------------------------------------------------------------


def test_suggestions_table_chart_band_filter_and_one_click_links(live_env: SandboxServer) -> None:
    at = open_page(SUGGESTIONS, domain=SITE)
    assert not at.exception
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.keyword_suggestions(SITE).suggestions
    table = at.dataframe[0].value
    assert list(table["keyword"]) == [s.keyword for s in expected]
    assert len(at.get("plotly_chart")) == 1
    links = {link.proto.label: link.proto.query_string for link in at.get("page_link")}
    first = expected[0].keyword.replace(" ", "+")
    assert f"keyword={first}" in links["Research its top 10"]
    assert any(f"track={first}" in q for label, q in links.items() if label.startswith("Track it"))

    at.button_group(key="bands").set_value(["4–10 (page 1)"]).run()
    assert not at.exception
    shown = at.dataframe[0].value
    assert list(shown["keyword"]) == [s.keyword for s in expected if 4 <= s.position <= 10]


def test_a_domain_without_qualifying_rankings_says_so(live_env: SandboxServer) -> None:
    empty = next(d for d in (f"quiet-site-{i}.com" for i in range(300)) if not suggestions(d))
    at = open_page(SUGGESTIONS, domain=empty)
    assert not at.exception
    assert any("no qualifying rankings" in i.value for i in at.info)
    assert not at.dataframe


# --- tracked keywords ---------------------------------------------------------------------------


def test_a_track_link_fills_the_add_field_once(live_env: SandboxServer) -> None:
    at = open_page(TRACKED, domain=SITE, track=NEW_KEYWORD)
    assert not at.exception
    assert at.text_input(key="track").value == NEW_KEYWORD
    assert "track" not in at.query_params  # nothing half-done stays in a link to share
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 0  # filled in, not sent


def test_tracked_list_shows_snapshots_limit_and_csv(live_env: SandboxServer, demo: ApiClient) -> None:
    at = open_page(TRACKED, domain=SITE)
    assert not at.exception
    expected = demo.tracked_keywords(SLUG)
    table = at.dataframe[0].value
    assert list(table["keyword"]) == [k.keyword for k in expected.keywords]
    assert list(table["gap"]) == [k.snapshot.gap for k in expected.keywords]
    texts = [p.proto.text for p in at.get("progress")]
    assert any(f"{len(expected.keywords)} of {expected.limit} tracked" in t for t in texts)
    assert [b.proto.label for b in at.get("download_button")] == ["Download CSV", "Raw CSV"]
    assert "never triggers a live Google search" in shown_text(at)
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 0  # reading never writes


def test_tracked_drs_show_as_whole_numbers_and_the_gap_is_explained(live_env: SandboxServer) -> None:
    at = open_page(TRACKED, domain=SITE)
    assert not at.exception
    config = json.loads(at.dataframe[0].proto.columns)
    # "%g" prints 93.0 as 93 and +0.0 as +0 (a median halfway between two DRs stays 40.5).
    assert config["median_dr"]["type_config"]["format"] == "%g"
    assert config["gap"]["type_config"]["format"] == "%+g"
    assert "21 DR above the median" in shown_text(at)


def test_a_plan_without_a_check_allowance_has_no_cap(live_env: SandboxServer, demo: ApiClient) -> None:
    quota = demo.tracked_keywords(SLUG).quota
    assert quota is not None and quota.limit is None  # the demo key's paid plan
    at = open_page(TRACKED, domain=SITE)
    assert not at.exception
    text = shown_text(at)
    assert f"{quota.used} keyword checks used" in text
    assert "no monthly cap on keyword checks" in text
    assert "no monthly check allowance" not in text  # read as "none allowed"


def test_add_is_sent_once_and_reruns_do_not_repeat_it(live_env: SandboxServer, demo: ApiClient) -> None:
    at = open_page(TRACKED, domain=SITE)
    at.text_input(key="track").input(NEW_KEYWORD)
    _click(at, "Track keyword")
    assert not at.exception
    assert any("Now tracking" in s.value for s in at.success)
    at.run()
    at.run()
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 1
    tracked = [k.keyword for k in demo.tracked_keywords(SLUG).keywords]
    assert tracked.count(NEW_KEYWORD) == 1
    assert NEW_KEYWORD in list(at.dataframe[0].value["keyword"])  # the list was re-read
    assert at.text_input(key="track").value == ""  # done: the field is ready for the next one

    reloaded = open_page(TRACKED, domain=SITE)  # a page refresh is a new session: nothing is resent
    assert not reloaded.exception
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 1


def _two_clicks_before_the_first_is_sent() -> None:
    """A script where two clicks on one write arrive before the run that sends it."""
    import streamlit as st

    from client.inputs import slug_for
    from components.core.cache.connection import current_connection
    from components.core.writes.writes import request_write, run_requested_write, show_flash
    from sandbox import DEMO_KEY
    from sandbox.accounts import ACCOUNTS

    conn = current_connection()
    if "clicked" not in st.session_state:
        st.session_state["clicked"] = True
        slug = slug_for(ACCOUNTS[DEMO_KEY].sites[0])
        for _ in range(2):
            request_write("probe", "add_tracked_keyword", slug, "double click probe")
    show_flash("probe")
    run_requested_write(conn, "probe")


def test_two_quick_clicks_send_one_write(live_env: SandboxServer) -> None:
    at = AppTest.from_function(_two_clicks_before_the_first_is_sent, default_timeout=30).run()
    assert not at.exception
    assert any("Done" in s.value for s in at.success)
    at.run()
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 1


def test_a_second_submit_right_after_is_not_sent_again(live_env: SandboxServer) -> None:
    at = open_page(TRACKED, domain=SITE)
    at.text_input(key="track").input(NEW_KEYWORD)
    _click(at, "Track keyword")
    at.text_input(key="track").input(NEW_KEYWORD)
    _click(at, "Track keyword")
    assert not at.exception
    assert any("not sent again" in i.value for i in at.info)
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 1


def test_a_failed_add_keeps_the_typed_text(live_env: SandboxServer, demo: ApiClient) -> None:
    before = demo.tracked_keywords(SLUG).keywords
    live_env.state.add_fault("add_tracked_keyword", 429, retry_after=7)
    at = open_page(TRACKED, domain=SITE)
    at.text_input(key="track").input(NEW_KEYWORD)
    _click(at, "Track keyword")
    assert not at.exception
    assert any("Too many requests" in w.value and "7 seconds" in w.value for w in at.warning)
    assert "rate-limits more strictly" in shown_text(at)
    assert at.text_input(key="track").value == NEW_KEYWORD
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 1  # a write is never retried by itself
    assert demo.tracked_keywords(SLUG).keywords == before


def test_adding_a_tracked_keyword_again_is_explained(live_env: SandboxServer, demo: ApiClient) -> None:
    existing = demo.tracked_keywords(SLUG).keywords[0].keyword
    at = open_page(TRACKED, domain=SITE)
    at.text_input(key="track").input(existing.upper())
    _click(at, "Track keyword")
    assert not at.exception
    assert "already tracked" in shown_text(at)
    assert at.text_input(key="track").value == existing.upper()


def test_refresh_resnapshots_one_keyword_once(live_env: SandboxServer, demo: ApiClient) -> None:
    target = demo.tracked_keywords(SLUG).keywords[1]
    at = open_page(TRACKED, domain=SITE)
    at.selectbox(key="tracked_pick").set_value(target.id).run()
    _click(at, "Refresh snapshot")
    assert not at.exception
    assert any("Refreshed" in s.value for s in at.success)
    at.run()
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 1
    after = next(k for k in demo.tracked_keywords(SLUG).keywords if k.id == target.id)
    assert after.last_checked_at != target.last_checked_at
    shown = at.dataframe[0].value
    row = shown[shown["id"] == target.id].iloc[0]
    assert row["last_checked_at"].to_pydatetime() == after.last_checked_at  # the re-read list


def test_remove_asks_first_then_removes_once(live_env: SandboxServer, demo: ApiClient) -> None:
    target = demo.tracked_keywords(SLUG).keywords[1]
    at = open_page(TRACKED, domain=SITE)
    at.selectbox(key="tracked_pick").set_value(target.id).run()
    _click(at, "Remove…")
    assert any("Stop tracking" in w.value for w in at.warning)
    _click(at, "Cancel")
    assert not any("Stop tracking" in w.value for w in at.warning)
    _click(at, "Remove…")
    _click(at, "Yes, remove it")
    assert not at.exception
    assert any("Stopped tracking" in s.value for s in at.success)
    at.run()
    assert _requests(live_env, "DELETE", KEYWORDS_PATH) == 1
    assert target.id not in {k.id for k in demo.tracked_keywords(SLUG).keywords}
    assert target.keyword not in list(at.dataframe[0].value["keyword"])


def test_add_remove_add_again_sends_each_write(live_env: SandboxServer, demo: ApiClient) -> None:
    at = open_page(TRACKED, domain=SITE)
    at.text_input(key="track").input(NEW_KEYWORD)
    _click(at, "Track keyword")
    added = next(k for k in demo.tracked_keywords(SLUG).keywords if k.keyword == NEW_KEYWORD)
    at.selectbox(key="tracked_pick").set_value(added.id).run()
    _click(at, "Remove…")
    _click(at, "Yes, remove it")
    at.text_input(key="track").input(NEW_KEYWORD)
    _click(at, "Track keyword")
    assert not at.exception
    assert _requests(live_env, "POST", KEYWORDS_PATH) == 2  # a new intent, not a double click
    assert [k.keyword for k in demo.tracked_keywords(SLUG).keywords].count(NEW_KEYWORD) == 1


def test_at_the_limit_adding_is_disabled(live_env: SandboxServer, demo: ApiClient) -> None:
    listing = demo.tracked_keywords(SLUG)
    for i in range(listing.limit - len(listing.keywords)):
        demo.add_tracked_keyword(SLUG, f"limit filler keyword {i}")
    at = open_page(TRACKED, domain=SITE)
    assert not at.exception
    assert button(at, "Track keyword").disabled
    assert any("the limit" in p.proto.text for p in at.get("progress"))


def test_a_400_on_add_is_explained_and_keeps_the_text(live_env: SandboxServer) -> None:
    live_env.state.add_fault("add_tracked_keyword", 400)
    at = open_page(TRACKED, domain=SITE)
    at.text_input(key="track").input(NEW_KEYWORD)
    _click(at, "Track keyword")
    assert not at.exception
    assert any("refused" in w.value for w in at.warning)
    assert "limit" in shown_text(at)
    assert at.text_input(key="track").value == NEW_KEYWORD


def test_the_site_picker_lists_your_sites_and_refuses_others(live_env: SandboxServer) -> None:
    stranger = "stripe.com"
    at = open_page(TRACKED, domain=stranger)
    assert not at.exception
    picker = at.selectbox(key="domain")
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        mine = [s.domain for s in client.sites().sites]
    assert stranger not in mine
    assert list(picker.options) == mine
    assert any(f"{escape_md(stranger)} is not one of your sites" in i.value for i in at.info)
    assert picker.value == mine[0]  # and the first of yours is shown instead
    assert _requests(live_env, "GET", f"/api/v1/sites/{slug_for(stranger)}/keywords") == 0

    picker.set_value(mine[1]).run()
    assert not at.exception
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.tracked_keywords(slug_for(mine[1])).keywords
    assert list(at.dataframe[0].value["keyword"]) == [k.keyword for k in expected]


def test_a_link_with_any_spelling_of_your_site_opens_it(live_env: SandboxServer) -> None:
    at = open_page(TRACKED, domain=f"https://www.{SITE}/pricing")
    assert not at.exception
    assert at.selectbox(key="domain").value == SITE
    assert not any("not one of your sites" in i.value for i in at.info)


def test_a_typed_site_that_is_not_yours_gets_a_clear_404(live_env: SandboxServer) -> None:
    live_env.state.add_fault("sites", 503)  # your sites cannot be listed: the page asks you to type one
    stranger = "stripe.com"
    at = open_page(TRACKED, domain=stranger)
    assert not at.exception
    assert at.text_input(key="domain").value == stranger
    assert any(f"{escape_md(stranger)} is not one of your sites" in i.value for i in at.info)
    assert _requests(live_env, "GET", f"/api/v1/sites/{slug_for(stranger)}/keywords") == 1
    assert not at.dataframe


def test_free_plan_shows_its_monthly_check_allowance(live_env: SandboxServer, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("VERIFIEDDR_API_KEY", FREE_KEY)
    with ApiClient(live_env.base_url, FREE_KEY) as client:
        quota = client.tracked_keywords(slug_for(FREE_SITE)).quota
    at = open_page(TRACKED, domain=FREE_SITE)
    assert not at.exception
    assert quota is not None and quota.limit is not None
    texts = [p.proto.text for p in at.get("progress")]
    assert any(f"{quota.used} of {quota.limit} keyword checks" in t for t in texts)
