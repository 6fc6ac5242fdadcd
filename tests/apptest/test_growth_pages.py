"""Discover, Link exchanges, My sites, Site details, AI visibility, Search Console and Monitor in AppTest.

Each page against the session sandbox (Live mode, ``live_env`` in conftest.py): its happy path with
numbers derived from the client, the owner scope (404), a validation error (400), the plan gate (402)
and a temporary outage (503); and, for every write, that one click sends exactly one request however
often the page reruns afterwards.
"""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from client import ApiClient
from client.growth_inputs import DiscoveryFilters
from sandbox import DEMO_KEY, FREE_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.data import DEMO_SITES, is_listed
from tests.apptest.app_pages import as_read, button, empty_caches, metric, open_page
from tests.sandbox_picks import new_domain

API = "/api/v1"
DEMO_SITE = ACCOUNTS[DEMO_KEY].sites[0]
FREE_SITE = ACCOUNTS[FREE_KEY].sites[0]
CONNECTED = next(s for s in ACCOUNTS[DEMO_KEY].sites if DEMO_SITES[s].gsc_connected)
NOT_CONNECTED = next(s for s in ACCOUNTS[DEMO_KEY].sites if not DEMO_SITES[s].gsc_connected)
#: A domain the sandbox does not list (found by its rule, not assumed).
UNLISTED = new_domain("unlisted-probe-", listed=False)


@pytest.fixture
def free_env(live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch) -> SandboxServer:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", FREE_KEY)
    return live_env


def _client(server: SandboxServer, key: str = DEMO_KEY) -> ApiClient:
    return ApiClient(server.base_url, key)


def _submit(at: AppTest, label: str) -> Any:
    found = [b for b in at.get("form_submit_button") if b.label == label] or [
        b for b in at.button if b.label == label
    ]
    assert found, f"no {label!r} submit button"
    return found[0]


def _table(at: AppTest, index: int = 0) -> Any:
    assert len(at.dataframe) > index, "no table on the page"
    return at.dataframe[index].value


def _clean(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


# --- every page renders the error vocabulary -----------------------------------------------------

#: (page, query that makes it call, operation it calls first)
PAGES: list[tuple[str, dict[str, str], str]] = [
    ("views/discover.py", {}, "find"),
    ("views/exchanges.py", {"domain": DEMO_SITE}, "exchange_candidates"),
    ("views/my-sites.py", {}, "sites"),
    ("views/site.py", {"domain": DEMO_SITE}, "site"),
    ("views/ai-visibility.py", {"domain": DEMO_SITE}, "ai_visibility"),
    ("views/search-console.py", {"domain": CONNECTED}, "gsc_performance"),
    ("views/monitor.py", {}, "monitor"),
]


@pytest.mark.parametrize(("page", "query", "operation"), PAGES, ids=[p[0] for p in PAGES])
def test_every_page_explains_400_402_and_503(
    live_env: SandboxServer, page: str, query: dict[str, str], operation: str
) -> None:
    expectations = [
        (400, "warning", "refused"),
        ("402-gate", "warning", "needs"),
        (503, "info", "being refreshed"),
    ]
    for fault, kind, words in expectations:
        live_env.state.clear_faults()
        empty_caches()
        live_env.state.add_fault(operation, fault)
        at = _clean(open_page(page, **query))
        shown = [e.value for e in getattr(at, kind)]
        assert any(words in text for text in shown), (fault, shown)
        if fault == "402-gate":
            assert at.get("link_button"), "the gate offers its upgrade link"
    live_env.state.clear_faults()
    at = _clean(at.run())  # a 503 is not cached: the next run recovers
    assert not any("being refreshed" in i.value for i in at.info)


@pytest.mark.parametrize(
    ("page", "query"),
    [
        ("views/site.py", {"domain": FREE_SITE}),
        ("views/ai-visibility.py", {"domain": FREE_SITE}),
        ("views/search-console.py", {"domain": FREE_SITE}),
        ("views/monitor.py", {"monitor_scope": "One site", "domain": FREE_SITE}),
        ("views/exchanges.py", {"domain": UNLISTED}),
    ],
)
def test_a_site_that_is_not_yours_is_explained(
    live_env: SandboxServer, page: str, query: dict[str, str]
) -> None:
    at = _clean(open_page(page, **query))
    assert any("Not found" in i.value for i in at.info), [i.value for i in at.info]
    assert at.text_input(key="domain").value == query["domain"]  # what was typed stays


# --- Discover ---------------------------------------------------------------------------------


def test_discover_lists_what_the_service_ranks(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/discover.py"))
    with _client(live_env) as client:
        expected = client.find(limit=20)
    assert list(_table(at)["domain"]) == [s.domain for s in expected.sites]
    assert at.get("plotly_chart") and at.get("download_button")
    assert at.get("page_link"), "a result opens on the Domain overview in one click"


def test_discover_filters_come_from_the_url(live_env: SandboxServer) -> None:
    with _client(live_env) as client:
        category = client.categories().categories[1]
        expected = client.find(DiscoveryFilters(category=category.value, min_true_dr=30, limit=20))
    # A bound selectbox keeps the label it shows in the URL.
    at = _clean(open_page("views/discover.py", category=category.label or category.value, min_true_dr="30"))
    table = _table(at)
    assert list(table["domain"]) == [s.domain for s in expected.sites]
    assert set(table["category"]) <= {category.label}
    assert (table["true_dr"] >= 30).all()


def test_discover_reruns_spend_no_call(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/discover.py"))
    served = live_env.state.total_requests()
    _clean(at.run())
    assert live_env.state.total_requests() == served


# --- Link exchanges -----------------------------------------------------------------------------


def _sent(server: SandboxServer) -> list[Any]:
    with server.state.growth() as growth:
        return list(growth.outreach.sent)


def test_exchanges_show_the_lookup_and_candidates(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/exchanges.py", domain=DEMO_SITE))
    with _client(live_env) as client:
        lookup = client.lookup(DEMO_SITE)
        expected = client.exchange_candidates(DEMO_SITE, limit=10)
    assert metric(at, "TrueDR") == str(lookup.authority.true_dr)
    assert list(_table(at)["domain"]) == [c.domain for c in expected.candidates]
    assert not [b for b in at.button if b.label == "Approve and send"], "no approval before a preview"


def test_preview_then_approve_sends_exactly_once(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/exchanges.py", domain=DEMO_SITE))
    _submit(at, "Preview (dry run: nothing is sent)").click()
    at = _clean(at.run())
    assert _sent(live_env) == [], "a preview sends nothing"
    assert any("nothing has been sent" in m.value for m in at.markdown)
    subject = at.text_input(key=next(k for k in _keys(at) if k.startswith("ex_subject:"))).value
    button(at, "Approve and send").click()
    at = _clean(at.run())
    assert any("Proposal sent" in s.value for s in at.success)
    for _ in range(2):
        at = _clean(at.run())
    sent = _sent(live_env)
    assert len(sent) == 1 and sent[0].subject == subject
    assert not any("Proposal sent" in s.value for s in at.success), "the confirmation is shown once"
    assert not [b for b in at.button if b.label == "Approve and send"], "the draft is used up"
    assert any("used this month: 1" in c.value for c in at.caption)


def _keys(at: AppTest) -> list[str]:
    return [str(w.key) for w in at.text_input if w.key]


def test_a_failed_preview_keeps_the_text(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/exchanges.py", domain=DEMO_SITE))
    key = next(k for k in _keys(at) if k.startswith("ex_subject:"))
    at.text_input(key=key).input("My own subject")
    live_env.state.add_fault("preview_exchange", 400, times=1)
    _submit(at, "Preview (dry run: nothing is sent)").click()
    at = _clean(at.run())
    assert any("refused" in w.value for w in at.warning)
    assert at.text_input(key=key).value == "My own subject"


PREVIEW = "Preview (dry run: nothing is sent)"


def _preview_then_approve(at: AppTest) -> AppTest:
    _submit(at, PREVIEW).click()
    at = _clean(at.run())
    button(at, "Approve and send").click()
    return _clean(at.run())


def _marks(at: AppTest) -> dict[str, str]:
    """Partner → its mark in the table's "Your proposal" column, for the partners that have one."""
    table = _table(at)
    return {d: str(m) for d, m in zip(table["domain"], table["proposal"], strict=True) if isinstance(m, str)}


def test_approve_after_an_edit_sends_nothing_and_asks_for_a_new_preview(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/exchanges.py", domain=DEMO_SITE))
    _submit(at, PREVIEW).click()
    at = _clean(at.run())
    message = next(w for w in at.text_area if str(w.key).startswith("ex_message:"))
    message.input("My own words, typed after the preview.")
    button(at, "Approve and send").click()
    at = _clean(at.run())
    assert _sent(live_env) == [], "edited text was approved without a preview"
    assert live_env.state.count("POST", f"{API}/find") == 1, "only the preview reached the service"
    assert any("changed since the preview" in w.value for w in at.warning)
    assert not any("Proposal sent" in s.value for s in at.success)
    assert not [b for b in at.button if b.label == "Approve and send"], "the stale preview is gone"


def test_a_sent_proposal_marks_its_partner(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/exchanges.py", domain=DEMO_SITE))
    assert _marks(at) == {}
    at = _preview_then_approve(at)
    [sent] = _sent(live_env)
    assert _marks(at) == {sent.target: "Already proposed"}
    assert any("Already proposed" in w.value for w in at.warning), "a warning before a second proposal"


def test_an_already_sent_refusal_marks_its_partner(live_env: SandboxServer) -> None:
    with _client(live_env) as client:  # an earlier session sent a proposal to the first candidate
        first = client.exchange_candidates(DEMO_SITE, limit=10).candidates[0]
        client.approve_exchange(client.preview_exchange(DEMO_SITE, first.slug or first.domain, "Hi", "Hello"))
    at = _clean(open_page("views/exchanges.py", domain=DEMO_SITE))
    assert _marks(at) == {}, "nothing tells this session yet"
    at = _preview_then_approve(at)
    assert len(_sent(live_env)) == 1, "the service refused the second proposal"
    assert any("Already done" in w.value for w in at.warning)
    assert _marks(at) == {first.domain: "Already proposed"}
    assert any("Already proposed" in w.value for w in at.warning)
    assert not [b for b in at.button if b.label == "Approve and send"]


def test_proposals_from_a_site_you_do_not_own_are_refused(live_env: SandboxServer) -> None:
    stranger = next(d for d in ("stripe.com", "hubspot.com") if is_listed(d))
    at = _clean(open_page("views/exchanges.py", domain=stranger))
    _submit(at, "Preview (dry run: nothing is sent)").click()
    at = _clean(at.run())
    assert any("Not found" in i.value for i in at.info)
    assert _sent(live_env) == []


def test_the_free_plan_meets_the_outreach_gate(free_env: SandboxServer) -> None:
    at = _clean(open_page("views/exchanges.py", domain=FREE_SITE))
    _submit(at, "Preview (dry run: nothing is sent)").click()
    at = _clean(at.run())
    assert any("needs" in w.value for w in at.warning)
    assert at.get("link_button")


# --- My sites -------------------------------------------------------------------------------------


def test_my_sites_lists_the_keys_sites(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/my-sites.py"))
    with _client(live_env) as client:
        expected = client.sites()
    assert list(_table(at)["domain"]) == [s.domain for s in expected.sites]
    assert metric(at, "Sites").startswith(str(len(expected.sites)))
    assert at.get("plotly_chart")


def _fill_submission(at: AppTest, url: str) -> AppTest:
    at.text_input(key="submit_url").input(url)
    at.text_input(key="submit_title").input("Probe site")
    at.multiselect(key="submit_categories").select("saas")
    return at


def test_submit_with_a_site_check_once_and_show_the_verdict(live_env: SandboxServer) -> None:
    domain = new_domain("page-submit-")
    at = _clean(open_page("views/my-sites.py", sites_tab="Submit a site"))
    _fill_submission(at, f"https://{domain}/")
    _submit(at, "Submit site").click()
    at = _clean(at.run())
    assert any(f"Submitted {domain}" in as_read(s.value) for s in at.success)
    for _ in range(2):
        at = _clean(at.run())
    assert live_env.state.count("POST", f"{API}/sites") == 1
    with _client(live_env) as client:
        verdict = client.site_check(domain).verdict
        assert domain in [s.domain for s in client.sites().sites]
    assert any(f"Site check: {verdict}" in m.value for m in at.markdown)  # the verdict badge
    assert at.text_input(key="submit_url").value == f"https://{domain}/"


def test_a_refused_submission_keeps_the_form(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/my-sites.py", sites_tab="Submit a site"))
    _fill_submission(at, "https://refused-probe.com/")
    live_env.state.add_fault("submit_site", 400, times=1)
    _submit(at, "Submit site").click()
    at = _clean(at.run())
    assert any("refused" in w.value for w in at.warning)
    assert at.text_input(key="submit_url").value == "https://refused-probe.com/"
    assert at.text_input(key="submit_title").value == "Probe site"
    assert at.multiselect(key="submit_categories").value == ["saas"]


def test_a_bad_url_is_explained_before_any_request(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/my-sites.py", sites_tab="Submit a site"))
    _fill_submission(at, "not a url")
    served = live_env.state.count("POST", f"{API}/sites")
    _submit(at, "Submit site").click()
    at = _clean(at.run())
    assert any("Check what you typed" in w.value for w in at.warning)
    assert live_env.state.count("POST", f"{API}/sites") == served == 0


def test_the_category_limit_is_enforced_in_the_form(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/my-sites.py", sites_tab="Submit a site"))
    with _client(live_env) as client:
        most = client.categories().max_per_site
    assert at.multiselect(key="submit_categories").proto.max_selections == most


def test_the_free_plan_meets_the_site_gate(free_env: SandboxServer) -> None:
    at = _clean(open_page("views/my-sites.py", sites_tab="Submit a site"))
    _fill_submission(at, "https://free-probe.com/")
    _submit(at, "Submit site").click()
    at = _clean(at.run())
    assert any("needs" in w.value for w in at.warning) and at.get("link_button")


# --- Site details ---------------------------------------------------------------------------------


def test_site_details_show_the_record_and_trends(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/site.py", domain=DEMO_SITE))
    with _client(live_env) as client:
        site = client.site(DEMO_SITE)
    assert metric(at, "DR") == str(site.dr) and metric(at, "TrueDR") == str(site.true_dr)
    assert at.get("plotly_chart")


def test_truedr_breakdown_tab(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/site.py", domain=DEMO_SITE, site_tab="TrueDR"))
    with _client(live_env) as client:
        report = client.site_truedr(DEMO_SITE)
    assert len(_table(at)) == len(report.breakdown)
    assert at.get("plotly_chart")


def test_export_tab_offers_json_and_csv(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/site.py", domain=DEMO_SITE, site_tab="Export"))
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download JSON" in labels and "Download CSV" in labels
    table = _table(at)
    fields = list(table["field"])
    assert "Domain" in fields and "X (Twitter) handle" in fields  # words, not "site.domain"/"site.xHandle"
    assert not any(field.startswith(("site.", "authority.", "snippets.")) for field in fields)
    values = set(table["value"].dropna())
    assert "yes" in values and not {"True", "False"} & values


def test_verify_is_sent_once(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/site.py", domain=DEMO_SITE, site_tab="Verify badge"))
    _submit(at, "Verify badge").click()
    at = _clean(at.run())
    for _ in range(2):
        at = _clean(at.run())
    assert live_env.state.count("POST", f"{API}/verify") == 1
    with _client(live_env) as client:
        verified = client.sites().sites[0].verified
    shown = at.success if verified else at.warning
    assert any("badge" in s.value.lower() for s in shown)


# --- AI visibility ------------------------------------------------------------------------------


def _visibility(server: SandboxServer) -> Any:
    with _client(server) as client:
        return client.ai_visibility(DEMO_SITE)


def test_ai_visibility_shows_the_snapshot(live_env: SandboxServer) -> None:
    view = _visibility(live_env)
    at = _clean(open_page("views/ai-visibility.py", domain=DEMO_SITE))
    assert view.snapshot is not None
    assert metric(at, "AI-visibility score") == f"{view.snapshot.score:.1f}"
    assert metric(at, "Questions tracked") == str(len(view.prompts))
    assert len(at.get("plotly_chart")) == 2


def test_adding_a_question_is_sent_once(live_env: SandboxServer) -> None:
    before = len(_visibility(live_env).prompts)
    at = _clean(open_page("views/ai-visibility.py", domain=DEMO_SITE, ai_tab="Questions"))
    at.text_input(key="ai_prompt").input("Which analytics tool is privacy friendly?")
    _submit(at, "Add question").click()
    at = _clean(at.run())
    for _ in range(2):
        at = _clean(at.run())
    assert live_env.state.count("POST", f"{API}/sites/{DEMO_SITE.replace('.', '-')}/ai-visibility") == 1
    assert len(_visibility(live_env).prompts) == before + 1
    assert metric(at, "Questions tracked") == str(before + 1)


def test_removing_a_question_is_sent_once(live_env: SandboxServer) -> None:
    first = _visibility(live_env).prompts[0]
    at = _clean(open_page("views/ai-visibility.py", domain=DEMO_SITE, ai_tab="Questions"))
    at.button(key=f"ai_remove_{first.id}").click()
    at = _clean(at.run())
    for _ in range(2):
        at = _clean(at.run())
    path = f"{API}/sites/{DEMO_SITE.replace('.', '-')}/ai-visibility"
    assert live_env.state.count("DELETE", path, f"promptId={first.id}") == 1
    assert first.id not in [p.id for p in _visibility(live_env).prompts]


def test_a_run_is_sent_once_and_the_next_is_refused(live_env: SandboxServer) -> None:
    runs = len(_visibility(live_env).history)
    at = _clean(open_page("views/ai-visibility.py", domain=DEMO_SITE, ai_tab="Questions"))
    at.button(key="ai_run").click()
    at = _clean(at.run())
    for _ in range(2):
        at = _clean(at.run())
    path = f"{API}/sites/{DEMO_SITE.replace('.', '-')}/ai-visibility"
    assert len(_visibility(live_env).history) == runs + 1 and live_env.state.count("POST", path) == 1
    at.button(key="ai_run").click()  # a double click: answered with the first result, not sent
    at = _clean(at.run())
    assert any("not sent again" in i.value for i in at.info)
    assert live_env.state.count("POST", path) == 1
    other = _clean(open_page("views/ai-visibility.py", domain=DEMO_SITE, ai_tab="Questions"))
    other.button(key="ai_run").click()  # another session, a week too soon: the service says no
    other = _clean(other.run())
    assert any("Already done" in w.value for w in other.warning)
    assert len(_visibility(live_env).history) == runs + 1


def test_a_short_question_is_explained_before_any_request(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/ai-visibility.py", domain=DEMO_SITE, ai_tab="Questions"))
    at.text_input(key="ai_prompt").input("seo?")
    _submit(at, "Add question").click()
    at = _clean(at.run())
    assert any("Check what you typed" in w.value for w in at.warning)
    assert live_env.state.count("POST", f"{API}/sites/{DEMO_SITE.replace('.', '-')}/ai-visibility") == 0


def test_the_free_plan_reads_but_cannot_add(free_env: SandboxServer) -> None:
    at = _clean(open_page("views/ai-visibility.py", domain=FREE_SITE, ai_tab="Questions"))
    at.text_input(key="ai_prompt").input("How big is a tiny house?")
    _submit(at, "Add question").click()
    at = _clean(at.run())
    assert any("needs" in w.value for w in at.warning) and at.get("link_button")


# --- Search Console --------------------------------------------------------------------------------


def test_search_console_totals_against_the_previous_period(live_env: SandboxServer) -> None:
    with _client(live_env) as client:
        perf = client.gsc_performance(CONNECTED, "3m").performance
    at = _clean(open_page("views/search-console.py", domain=CONNECTED, range="3 months"))
    assert perf.totals is not None and perf.previous_totals is not None
    assert metric(at, "Clicks") == f"{perf.totals.clicks:,}"
    assert len(at.dataframe) == 4 and at.get("plotly_chart")


def test_search_console_not_connected_asks_nothing(live_env: SandboxServer) -> None:
    at = open_page("views/search-console.py", domain=NOT_CONNECTED)
    _clean(at)
    assert any("not connected" in i.value for i in at.info)
    slug = NOT_CONNECTED.replace(".", "-")
    assert live_env.state.count("GET", f"{API}/sites/{slug}/gsc-performance", "range=28d") == 0


def test_an_audit_run_is_sent_once(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/search-console.py", domain=CONNECTED, gsc_tab="Index audit"))
    assert any("cooldown" in c.value for c in at.caption)
    at.button(key="gsc_run").click()
    at = _clean(at.run())
    for _ in range(2):
        at = _clean(at.run())
    assert live_env.state.count("POST", f"{API}/sites/{CONNECTED.replace('.', '-')}/gsc-audit") == 1
    with _client(live_env) as client:
        ran = client.gsc_audit(CONNECTED).audit
    assert ran is not None and ran.ran_at is not None
    assert any(ran.ran_at.strftime("%Y-%m-%d %H:%M") in c.value for c in at.caption), (
        "the fresh audit is shown"
    )


def test_the_free_plan_meets_the_search_console_gate(free_env: SandboxServer) -> None:
    at = _clean(open_page("views/search-console.py", domain=FREE_SITE))
    assert any("needs" in w.value for w in at.warning) and at.get("link_button")


# --- Monitor --------------------------------------------------------------------------------------


def test_monitor_lists_every_site_with_its_alerts(live_env: SandboxServer) -> None:
    with _client(live_env) as client:
        report = client.monitor()
    at = _clean(open_page("views/monitor.py"))
    assert list(_table(at)["domain"]) == [s.domain for s in report.sites]
    alerts = [a for s in report.sites for a in s.alerts]
    shown = [e for kind in (at.error, at.warning, at.info) for e in kind if "·" in e.value]
    assert len(shown) == len(alerts)
    critical = sum(1 for a in alerts if a.level == "critical")
    assert len([e for e in at.error if "·" in e.value]) == critical


def test_monitor_one_site_daily(live_env: SandboxServer) -> None:
    at = _clean(open_page("views/monitor.py", monitor_scope="One site", domain=DEMO_SITE, daily="true"))
    assert list(_table(at)["domain"]) == [DEMO_SITE]
    assert live_env.state.count("GET", f"{API}/monitor", f"daily=true&domain={DEMO_SITE}") == 1
