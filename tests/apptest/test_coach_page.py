"""The Coach page in AppTest on sandbox domains picked (by computing) to hit each rule branch.

Its check in a real browser is tests/browser/test_coach_browser.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from analysis.coach import rules as coach
from analysis.text import WORD_JOINER
from client import ApiClient
from client.growth_models import ExchangeCandidates
from components.core.nav import pages
from sandbox import DEMO_KEY, SandboxServer
from sandbox import data as sandbox_data
from tests.apptest.app_pages import APP, metric, open_page
from tests.sandbox_picks import CANDIDATES, domain_for_issue, domain_where, listed_domains

PAGE = pages.COACH.file


@pytest.fixture
def client(live_env: SandboxServer) -> Iterator[ApiClient]:
    """The demo key's client, the app in Live mode against the same sandbox."""
    with ApiClient(live_env.base_url, DEMO_KEY, timeout=5.0) as api:
        yield api


def coach_app(domain: str | None = None, tab: str | None = None) -> AppTest:
    """The Coach page for ``domain`` on ``tab`` (the page's own choice where None), after its first run."""
    query = {"domain": domain, "coach": tab}
    at = open_page(PAGE, **{name: value for name, value in query.items() if value is not None})
    assert not at.exception
    return at


def partner_candidates(client: ApiClient, domain: str) -> ExchangeCandidates:
    """What the Next tab asks for: traffic-validated partners from the coach's TrueDR floor up."""
    return client.exchange_candidates(
        domain,
        traffic_validated=True,
        min_true_dr=coach.PARTNER_MIN_TRUE_DR,
        limit=coach.PARTNER_CANDIDATE_LIMIT,
    )


def callouts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in (at.success, at.info, at.warning, at.error) for e in kind)


def markdown(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in (*at.markdown, *at.caption))


def unescape(text: str) -> str:
    """As read: without ``escape_md``'s escapes and invisible word joiners."""
    return re.sub(r"\\(.)", r"\1", text).replace(WORD_JOINER, "")


# --- Analyze, one sandbox site per branch of the main issue ---------------------------------------


@pytest.mark.parametrize("kind", ["inflated", "unbacked", "low_trust", "trailing", "aligned"])
def test_analyze_shows_the_scores_main_issue_and_top_three(kind: str, client: ApiClient) -> None:
    domain = domain_for_issue(kind)
    lookup = client.lookup(domain)
    at = coach_app(domain)
    a = lookup.authority
    assert metric(at, "DR") == str(a.dr) and metric(at, "TrueDR") == str(a.true_dr)
    assert metric(at, "Gap") == f"{round(a.true_dr - a.dr):+d}"
    shown = unescape(callouts(at))
    assert coach.ISSUE_TEXT[kind] in shown
    assert not any(text in shown for other, text in coach.ISSUE_TEXT.items() if other != kind)
    titles = re.findall(r"\*\*\d\. (.+?)\*\*", unescape(markdown(at)))
    assert titles == [action.title for action in coach.ranked_actions(lookup)[:3]]
    assert len(at.get("plotly_chart")) == 1


#: A developer note: an API field path or a vdr CLI command, as code.
DEVELOPER_NOTE = re.compile(r"`(lookup|map|find)\.|`vdr ")


def test_advice_says_in_plain_words_what_it_rests_on_and_folds_the_data_used(client: ApiClient) -> None:
    domain = domain_for_issue("inflated")
    lookup = client.lookup(domain)
    at = coach_app(domain)
    shown = unescape(markdown(at))
    assert f"Based on: {coach.plain_sources(coach.analyze(lookup).issue.sources)}" in shown
    details = [e for e in at.expander if e.label == "Data used"]
    assert len(details) == 1 + coach.TOP_ACTIONS  # the main issue and each top action
    assert not any(e.proto.expanded for e in details), "the data used starts folded"
    folded = {str(c.value) for e in details for c in e.caption}
    in_view = [str(e.value) for e in (*at.markdown, *at.caption) if str(e.value) not in folded]
    assert not [text for text in in_view if DEVELOPER_NOTE.search(text)]
    assert any(DEVELOPER_NOTE.search(text) for text in folded), "field names and CLI steps are kept"


def visit_every_tab(at: AppTest) -> None:
    """Open each tab the page shows in turn, as a user clicking through them (the tab lives in the URL):
    the vdr CLI's ten coach commands, in its order, from Analyze to Next."""
    shown = [tab.label for tab in at.tabs]
    assert (len(shown), shown[0], shown[-1]) == (10, "Analyze", "Next"), shown
    for tab in shown:
        at.query_params["coach"] = tab
        at.run()
        assert not at.exception, tab
        assert markdown(at) or at.code, f"{tab} is empty"


def test_every_tab_renders_for_a_site(live_env: SandboxServer) -> None:
    visit_every_tab(coach_app(domain_for_issue("inflated")))


def test_only_the_open_tab_calls_the_api_and_reruns_spend_nothing(live_env: SandboxServer) -> None:
    domain = domain_where(lambda lookup: "risky_links" in [a.key for a in coach.ranked_actions(lookup)[:3]])
    at = coach_app(domain)
    assert live_env.state.count("GET", f"/api/v1/map/{domain}") == 0  # the audit tab is closed
    served = live_env.state.total_requests()
    at.run()
    assert live_env.state.total_requests() == served
    at.button(key="analyze_risky_links").click().run()  # "Go to Audit backlinks" on the action
    assert not at.exception
    assert at.session_state["coach"] == "Audit backlinks"
    assert live_env.state.count("GET", f"/api/v1/map/{domain}") == 1
    assert metric(at, "Trust score")


# --- Diagnose, Actions ---------------------------------------------------------------------------------


def test_diagnose_shows_each_piece_of_public_evidence(client: ApiClient) -> None:
    domain = domain_for_issue("unbacked")
    lookup = client.lookup(domain)
    text = unescape(markdown(coach_app(domain, "Diagnose")))
    assert f"Trust score: {lookup.authority.trust_score}/100" in text
    assert f"Traffic validated: {'yes' if lookup.authority.traffic_validated else 'no'}" in text
    traffic = "unknown" if lookup.evidence.traffic is None else f"{lookup.evidence.traffic:,} visits/month"
    assert f"Traffic: {traffic}" in text
    assert f"Referring domains: {lookup.evidence.referring_domains:,}" in text


def test_actions_table_ranks_every_action_with_a_chart_and_csv(client: ApiClient) -> None:
    domain = domain_where(lambda lookup: len(coach.ranked_actions(lookup)) >= 4)
    at = coach_app(domain, "Actions")
    table = at.dataframe[0].value
    assert list(table["action"]) == [a.title for a in coach.ranked_actions(client.lookup(domain))]
    assert list(table["priority"]) == sorted(table["priority"], reverse=True)
    # Both CSV forms: as shown (labels, yes/no) for a spreadsheet, raw (field names) for scripts.
    assert [b.label for b in at.get("download_button")] == ["Download CSV", "Raw CSV"]
    assert len(at.get("plotly_chart")) == 1


def test_each_action_says_in_full_why_and_what_it_rests_on_and_folds_the_field_names(
    client: ApiClient,
) -> None:
    # The table is the ranking at a glance; each action reads in full in a card under it (before, the
    # why, the impact and the evidence were table columns scrolled off the page).
    domain = domain_where(lambda lookup: len(coach.ranked_actions(lookup)) >= 4)
    actions = coach.ranked_actions(client.lookup(domain))
    at = coach_app(domain, "Actions")
    table = at.dataframe[0]
    assert list(table.value["based_on"]) == [coach.plain_sources(a.sources) for a in actions]
    columns = json.loads(table.proto.columns)
    assert columns["based_on"]["label"] == "Based on", "the readable name, should the column be shown"
    assert columns["data"].get("hidden") and columns["cli"].get("hidden"), "field names stay off the table"
    shown = list(table.proto.column_order)
    assert shown[:2] == ["rank", "action"] and not {"why", "impact", "based_on", "data", "cli"} & set(shown)
    text = unescape(markdown(at))
    for action in actions:
        assert action.detail in text and action.impact in text
        assert f"Based on: {coach.plain_sources(action.sources)}" in text
    folded = "\n".join(str(c.value) for e in at.expander if e.label == "Data used" for c in e.caption)
    assert all(a.cli_for(domain) in folded for a in actions)


# --- Audit backlinks -------------------------------------------------------------------------------


def test_audit_lists_the_flagged_referring_domains(client: ApiClient) -> None:
    domain = domain_where(lambda lookup: True)
    trust_map = client.trust_map(domain)
    expected = {
        d.domain
        for d in trust_map.domains
        if (d.spam_score is not None and d.spam_score >= 50)
        or d.status == "lost"
        or d.link_type == "nofollow"
    }
    at = coach_app(domain, "Audit backlinks")
    flagged = [
        f.value for f in at.dataframe if "flags" in f.value.columns and "anchor" not in f.value.columns
    ]
    assert flagged, "no flagged-domains table"
    assert set(flagged[0]["domain"]) == expected
    assert metric(at, "Lost") == str(sum(1 for d in trust_map.domains if d.status == "lost"))
    assert any(b.label == "Download CSV" for b in at.get("download_button"))
    assert len(at.get("plotly_chart")) == 2


def test_a_cold_trust_map_is_being_built_and_the_audit_uses_the_lookup(client: ApiClient) -> None:
    domain = next(d for d in listed_domains() if sandbox_data.is_map_cold(d))
    lookup = client.lookup(domain)
    at = coach_app(domain, "Audit backlinks")
    assert "being built" in unescape(callouts(at))
    tables = [f.value for f in at.dataframe]
    strongest = [b.source_domain for b in lookup.evidence.top_backlinks or []][: coach.AUDIT_LINKS]
    assert list(tables[0]["domain"]) == strongest


# --- Fix, Track, Explain, Next -----------------------------------------------------------------------


def test_fix_plans_toward_the_goal_the_user_sets(client: ApiClient) -> None:
    domain = domain_where(lambda lookup: (lookup.authority.true_dr or 100) < 80)
    true_dr = client.lookup(domain).authority.true_dr
    at = coach_app(domain, "Fix")
    assert metric(at, "Target TrueDR") == str(true_dr + coach.DEFAULT_GOAL)
    at.number_input(key="goal").set_value(15).run()
    assert not at.exception
    assert metric(at, "Target TrueDR") == str(true_dr + 15)
    plan = at.dataframe[0].value
    assert list(plan["step"]) == [a.title for a in coach.ranked_actions(client.lookup(domain))[:3]]


@pytest.mark.parametrize("rising", [True, False], ids=["truedr rose", "truedr did not rise"])
def test_track_verdict_follows_the_weekly_truedr_change(rising: bool, client: ApiClient) -> None:
    domain = domain_where(lambda lookup: ((lookup.changes.true_dr_weekly_change or 0) > 0) is rising)
    at = coach_app(domain, "Track")
    week = client.lookup(domain).changes.true_dr_weekly_change
    verdicts = [s.value for s in at.success] if rising else [i.value for i in at.info]
    assert any("Improving" in v for v in verdicts) is rising
    assert any("No clear TrueDR lift" in v for v in verdicts) is not rising
    shown = "not available" if week is None else "0" if week == 0 else f"{week:+.1f}"
    assert metric(at, "TrueDR this week") == shown


def test_explain_paragraph_is_in_a_copyable_box(client: ApiClient) -> None:
    domain = domain_for_issue("trailing")
    lookup = client.lookup(domain)
    at = coach_app(domain, "Explain")
    assert len(at.code) == 1
    paragraph = at.code[0].value
    assert paragraph.startswith(f"{domain} has a DR of {lookup.authority.dr}")
    assert f"TrueDR is {lookup.authority.true_dr}." in paragraph
    assert coach.ISSUE_TEXT["trailing"] in paragraph


def test_next_suggests_the_best_partner_and_links_to_the_preview(client: ApiClient) -> None:
    domain = next(iter(sandbox_data.DEMO_SITES))
    found = partner_candidates(client, domain)
    best = next(
        c
        for c in found.candidates
        if c.authority.traffic_validated and (c.authority.true_dr or 0) >= coach.PARTNER_MIN_TRUE_DR
    )
    at = coach_app(domain, "Next")
    assert best.domain in unescape(markdown(at))
    links = [link.proto for link in at.get("page_link")]
    preview = [p for p in links if p.page == "exchanges"]
    assert preview and f"domain={domain}" in preview[0].query_string
    assert "ex_validated=true" in preview[0].query_string


def test_next_skips_a_partner_already_contacted_this_session(client: ApiClient) -> None:
    domain = next(iter(sandbox_data.DEMO_SITES))
    found = partner_candidates(client, domain)
    first, second = (c for c in found.candidates[:2])
    at = AppTest.from_file(APP, default_timeout=30)
    at.switch_page(PAGE)
    at.query_params.update({"domain": domain, "coach": "Next"})
    at.session_state["result:exchange_sent"] = {(domain, first.slug or first.domain)}  # the exchanges page's
    at.run()
    assert not at.exception
    shown = unescape(markdown(at))
    assert f"**{second.domain}**" in shown and f"**{first.domain}**" not in shown


# --- inputs and errors ----------------------------------------------------------------------------


def test_an_unlisted_domain_is_explained_with_a_way_to_its_plain_dr(live_env: SandboxServer) -> None:
    domain = next(d for d in CANDIDATES if not sandbox_data.is_listed(d))
    at = coach_app(domain)
    assert "is not listed" in unescape(callouts(at))
    # The Domain overview is the default page, so its link points at the app's root path.
    assert [(link.proto.label, link.proto.page) for link in at.get("page_link")] == [
        ("Check its plain DR on the Domain overview", "")
    ]
    assert at.text_input(key="domain").value == domain


def test_bad_input_is_explained_and_kept(live_env: SandboxServer) -> None:
    at = coach_app("not a domain!")
    assert at.warning and "Check what you typed" in at.warning[0].value
    assert at.text_input(key="domain").value == "not a domain!"


def test_a_lookup_with_nulls_everywhere_still_gets_advice_on_every_tab(live_env: SandboxServer) -> None:
    live_env.state.add_fault("lookup", "nulls")
    live_env.state.add_fault("trust_map", "nulls")
    at = coach_app(domain_for_issue("inflated"))
    assert metric(at, "DR") == "not available" and metric(at, "Gap") == "not available"
    assert "did not report" in unescape(markdown(at))
    visit_every_tab(at)


def test_503_on_the_lookup_says_the_data_is_being_refreshed(live_env: SandboxServer) -> None:
    live_env.state.add_fault("lookup", 503)
    at = coach_app(domain_for_issue("aligned"))
    assert "being refreshed" in callouts(at)
    assert not at.tabs
