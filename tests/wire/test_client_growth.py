"""The growth and site-management client methods against the real sandbox over HTTP on 127.0.0.1.

Every operation's happy path, its owner scope and plan gate, the input refused before any request,
and the preview-before-approve rule. Expected values are derived from other answers or the sandbox's
own data helpers, never typed in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from client import ApiClient, errors
from client.api import DEFAULT_TIMEOUT_S, SLOW_TIMEOUT_S
from client.growth_inputs import GSC_RANGES, MAX_FIND_LIMIT, DiscoveryFilters, NewSite
from client.outreach import ExchangeDraft
from sandbox import DEMO_KEY, FREE_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.data import DEMO_SITES, site_profile
from sandbox.discovery import pool
from sandbox.faults import GROWTH_OPERATIONS
from sandbox.gsc import RANGE_DAYS
from tests.sandbox_picks import new_domain

DEMO_SITE = ACCOUNTS[DEMO_KEY].sites[0]
FREE_SITE = ACCOUNTS[FREE_KEY].sites[0]
NOT_CONNECTED = next(s for s in ACCOUNTS[DEMO_KEY].sites if not DEMO_SITES[s].gsc_connected)
CONNECTED = next(s for s in ACCOUNTS[DEMO_KEY].sites if DEMO_SITES[s].gsc_connected)


def _sent(server: SandboxServer) -> list[Any]:
    with server.state.growth() as growth:
        return list(growth.outreach.sent)


def _served(server: SandboxServer) -> int:
    return server.state.total_requests()


# --- discovery --------------------------------------------------------------------------------


def test_find_ranks_by_true_dr_then_dr_and_respects_the_limit(demo: ApiClient) -> None:
    found = demo.find(limit=25)
    assert len(found.sites) == 25
    keys = [(s.authority.true_dr, s.authority.dr) for s in found.sites]
    assert keys == sorted(keys, reverse=True)
    assert found.filters is not None and found.filters.limit == 25


def test_find_filters_every_result(demo: ApiClient) -> None:
    category = demo.categories().categories[0].value
    found = demo.find(DiscoveryFilters(category=category, min_true_dr=20, min_dr=25, traffic_validated=True))
    assert found.sites, "the filters should still match some sites"
    for site in found.sites:
        assert site.category == category
        assert site.authority.true_dr >= 20 and site.authority.dr >= 25  # type: ignore[operator]
        assert site.authority.traffic_validated is True
        assert site.verified is True  # unverified sites only when asked for


def test_find_includes_unverified_sites_only_when_asked(demo: ApiClient) -> None:
    def listed_in(value: str) -> list[Any]:
        return [site_profile(d) for d in pool() if site_profile(d).category == value]

    # A category small enough to come back whole, with unverified sites in it (found, not assumed).
    category = next(
        c.value
        for c in demo.categories().categories
        if len(listed_in(c.value)) <= MAX_FIND_LIMIT and any(not p.verified for p in listed_in(c.value))
    )
    in_pool = listed_in(category)
    verified = demo.find(category=category, limit=MAX_FIND_LIMIT)
    everyone = demo.find(category=category, include_unverified=True, limit=MAX_FIND_LIMIT)
    assert [s.domain for s in verified.sites] == [s.domain for s in everyone.sites if s.verified]
    assert len(everyone.sites) == len(in_pool) > len(verified.sites)


def test_find_rows_agree_with_lookup(demo: ApiClient) -> None:
    row = demo.find(limit=3).sites[-1]
    lookup = demo.lookup(row.domain)
    assert (row.authority.dr, row.authority.true_dr, row.authority.trust_score) == (
        lookup.authority.dr,
        lookup.authority.true_dr,
        lookup.authority.trust_score,
    )


@pytest.mark.parametrize(
    "criteria",
    [
        {"limit": MAX_FIND_LIMIT + 1},
        {"limit": 0},
        {"min_true_dr": 101},
        {"min_dr": -1},
        {"category": "no way"},
    ],
)
def test_impossible_filters_are_refused_before_any_request(
    demo: ApiClient, sandbox: SandboxServer, criteria: dict[str, Any]
) -> None:
    served = _served(sandbox)
    with pytest.raises(errors.InvalidInputError):
        demo.find(**criteria)
    assert _served(sandbox) == served


def test_an_unknown_category_is_a_400_from_the_service(demo: ApiClient) -> None:
    with pytest.raises(errors.BadRequestError) as caught:
        demo.find(category="underwater-basket-weaving")
    assert caught.value.status == 400


def test_find_spends_no_quota(demo: ApiClient) -> None:
    demo.categories()
    before = demo.last_quota
    demo.find(limit=5)
    assert before is not None and demo.last_quota is not None
    assert demo.last_quota.remaining == before.remaining


# --- exchange candidates ----------------------------------------------------------------------


def test_exchange_candidates_exclude_your_sites_and_say_why(demo: ApiClient) -> None:
    found = demo.exchange_candidates(f"https://www.{DEMO_SITE}/", limit=10)
    assert found.domain == DEMO_SITE and found.redacted is False
    assert 0 < len(found.candidates) <= 10
    names = {c.domain for c in found.candidates}
    assert not names & set(ACCOUNTS[DEMO_KEY].sites)
    assert all(c.opportunity and c.opportunity.reason and c.opportunity.type for c in found.candidates)


def test_exchange_candidates_with_the_coach_filters(demo: ApiClient) -> None:
    found = demo.exchange_candidates(
        DEMO_SITE, DiscoveryFilters(traffic_validated=True, min_true_dr=20, limit=3)
    )
    assert len(found.candidates) <= 3
    assert all(c.authority.traffic_validated and c.authority.true_dr >= 20 for c in found.candidates)  # type: ignore[operator]


def test_exchange_candidates_of_an_unlisted_domain_are_404(demo: ApiClient) -> None:
    with pytest.raises(errors.NotFoundError):
        demo.exchange_candidates(new_domain("unlisted-probe-", listed=False))


# --- preview, then approve --------------------------------------------------------------------


def _candidate(client: ApiClient, domain: str = DEMO_SITE, index: int = 0) -> str:
    found = client.exchange_candidates(domain, limit=index + 1)
    slug = found.candidates[index].slug
    assert slug
    return slug


def test_preview_sends_nothing_and_approve_sends_the_previewed_text_once(
    demo: ApiClient, sandbox: SandboxServer
) -> None:
    target = _candidate(demo)
    draft = demo.preview_exchange(DEMO_SITE, target, "  Link exchange? ", "Hello,\n\nShall we swap links?\n")
    assert isinstance(draft, ExchangeDraft)
    assert draft.preview.dry_run is True and draft.preview.sent is False
    assert (draft.subject, draft.message) == ("Link exchange?", "Hello,\n\nShall we swap links?")
    assert _sent(sandbox) == []
    used_before = draft.preview.quota.used if draft.preview.quota else None
    sent = demo.approve_exchange(draft)
    assert sent.sent is True and sent.dry_run is False
    assert sent.quota is not None and sent.quota.used == (used_before or 0) + 1
    log = _sent(sandbox)
    assert len(log) == 1 and (log[0].subject, log[0].message) == (draft.subject, draft.message)


def test_approve_refuses_anything_but_an_untouched_draft(demo: ApiClient, sandbox: SandboxServer) -> None:
    draft = demo.preview_exchange(DEMO_SITE, _candidate(demo), "Subject", "Message")
    forged = [
        dataclasses.replace(draft, message="Something else entirely"),
        dataclasses.replace(draft, target=_candidate(demo, index=1)),
        ExchangeDraft(DEMO_SITE, draft.target, "Subject", "Message", draft.preview),
        "not a draft",
    ]
    served = _served(sandbox)
    for fake in forged:
        with pytest.raises(errors.InvalidInputError):
            demo.approve_exchange(fake)  # type: ignore[arg-type]
    assert _served(sandbox) == served and _sent(sandbox) == []


def test_a_draft_does_not_travel_to_another_key(sandbox: SandboxServer, demo: ApiClient) -> None:
    draft = demo.preview_exchange(DEMO_SITE, _candidate(demo), "Subject", "Message")
    with ApiClient(sandbox.base_url, FREE_KEY) as other, pytest.raises(errors.InvalidInputError):
        other.approve_exchange(draft)


def test_edited_text_is_sent_only_through_the_explicit_call(demo: ApiClient, sandbox: SandboxServer) -> None:
    draft = demo.preview_exchange(DEMO_SITE, _candidate(demo), "Subject", "Message")
    demo.approve_edited_exchange(draft, "Better subject", "A better message")
    assert [(s.subject, s.message) for s in _sent(sandbox)] == [("Better subject", "A better message")]


def test_a_second_send_to_the_same_partner_is_409(demo: ApiClient, sandbox: SandboxServer) -> None:
    draft = demo.preview_exchange(DEMO_SITE, _candidate(demo), "Subject", "Message")
    demo.approve_exchange(draft)
    with pytest.raises(errors.ConflictError):
        demo.approve_exchange(draft)
    assert len(_sent(sandbox)) == 1


def test_a_failed_send_is_never_retried(demo: ApiClient, sandbox: SandboxServer) -> None:
    draft = demo.preview_exchange(DEMO_SITE, _candidate(demo), "Subject", "Message")
    sandbox.state.add_fault("approve_exchange", 503, times=1)
    served = _served(sandbox)
    with pytest.raises(errors.UnavailableError):
        demo.approve_exchange(draft)
    assert _served(sandbox) == served + 1 and _sent(sandbox) == []


def test_proposals_only_from_your_own_site_to_a_candidate(demo: ApiClient) -> None:
    stranger = next(d for d in ("stripe.com", "hubspot.com") if d not in ACCOUNTS[DEMO_KEY].sites)
    with pytest.raises(errors.NotFoundError):
        demo.preview_exchange(stranger, _candidate(demo), "Subject", "Message")
    with pytest.raises(errors.NotFoundError):
        demo.preview_exchange(DEMO_SITE, ACCOUNTS[DEMO_KEY].sites[1], "Subject", "Message")


def test_proposals_need_a_subject_and_a_message(demo: ApiClient, sandbox: SandboxServer) -> None:
    served = _served(sandbox)
    for subject, message in (("", "Message"), ("Subject", "   "), ("x" * 201, "Message")):
        with pytest.raises(errors.InvalidInputError):
            demo.preview_exchange(DEMO_SITE, "partner.com", subject, message)
    assert _served(sandbox) == served


def test_the_free_plan_meets_the_outreach_gate(free: ApiClient) -> None:
    with pytest.raises(errors.PaymentRequiredError) as caught:
        free.preview_exchange(FREE_SITE, _candidate(free, FREE_SITE), "Subject", "Message")
    assert caught.value.is_gate and caught.value.upgrade_url and caught.value.blocked_feature


# --- my sites ---------------------------------------------------------------------------------


def test_sites_lists_exactly_the_keys_sites(demo: ApiClient, free: ApiClient) -> None:
    assert [s.domain for s in demo.sites().sites] == list(ACCOUNTS[DEMO_KEY].sites)
    assert [s.domain for s in free.sites().sites] == list(ACCOUNTS[FREE_KEY].sites)
    record = demo.sites().sites[0]
    lookup = demo.lookup(record.domain or "")
    assert (record.dr, record.true_dr, record.status) == (
        lookup.authority.dr,
        lookup.authority.true_dr,
        "approved",
    )


def test_submit_with_a_site_check_creates_the_report(demo: ApiClient, sandbox: SandboxServer) -> None:
    domain = new_domain("submit-probe-")
    answer = demo.submit_site(f"blog.{domain}/", title=" My  site ", categories=("saas",), site_check=True)
    assert answer.site.domain == domain and answer.site.url == f"https://blog.{domain}/"
    assert answer.site.title == "My site" and answer.site.categories == ["saas"]
    assert answer.site_check is not None and answer.site_check.verdict
    report = demo.site_check(domain)  # GET /site-check now finds it
    assert report.verdict == answer.site_check.verdict and report.reasons == answer.site_check.reasons
    assert domain in [s.domain for s in demo.sites().sites]
    assert demo.site(domain).domain == domain  # owned now


def test_submit_without_a_site_check_leaves_no_report(demo: ApiClient) -> None:
    domain = new_domain("no-check-probe-")
    assert demo.submit_site(domain).site_check is None
    with pytest.raises(errors.NotFoundError):
        demo.site_check(domain)


def test_an_unlisted_submission_is_pending_with_missing_ratings(demo: ApiClient) -> None:
    domain = new_domain("pending-probe-", listed=False)
    record = demo.submit_site(domain).site
    assert record.status == "pending" and record.dr is not None
    assert record.true_dr is None and record.traffic is None  # unknown, never 0
    assert demo.site_truedr(domain).breakdown == []


def test_a_submitted_site_is_404_for_other_keys_and_409_twice(demo: ApiClient, free: ApiClient) -> None:
    domain = new_domain("owned-probe-")
    demo.submit_site(domain)
    with pytest.raises(errors.NotFoundError):
        free.site(domain)
    with pytest.raises(errors.ConflictError):
        demo.submit_site(domain)
    with pytest.raises(errors.ConflictError):
        demo.submit_site(ACCOUNTS[FREE_KEY].sites[0])


def test_submission_input_is_checked_before_sending(demo: ApiClient, sandbox: SandboxServer) -> None:
    cats = demo.categories()
    assert cats.max_per_site is not None
    served = _served(sandbox)
    too_many = tuple(c.value for c in cats.categories[: cats.max_per_site + 1])
    for bad in (
        lambda: demo.submit_site("ftp://example.org"),
        lambda: demo.submit_site("not a url"),
        lambda: demo.submit_site("https://probe.com", title="x" * 121),
        lambda: demo.submit_site("https://probe.com", categories=too_many),
        lambda: demo.submit_site("https://probe.com", categories=("made-up-category",)),
        lambda: demo.submit_site("https://probe.com", x_handle="not a handle!"),
    ):
        with pytest.raises(errors.InvalidInputError):
            bad()
    assert _served(sandbox) == served


def test_an_unknown_category_is_a_400_when_the_client_has_not_seen_the_list(sandbox: SandboxServer) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as fresh, pytest.raises(errors.BadRequestError) as caught:
        fresh.submit_site(new_domain("cat-probe-"), categories=("made-up-category",))
    assert caught.value.status == 400


def test_the_free_plan_meets_the_site_gate(free: ApiClient) -> None:
    with pytest.raises(errors.PaymentRequiredError) as caught:
        free.submit_site(NewSite(new_domain("free-probe-")))
    assert caught.value.is_gate and caught.value.upgrade_url


def test_site_trends_end_at_the_current_ratings(demo: ApiClient) -> None:
    detail = demo.site(DEMO_SITE.replace(".", "-"))
    lookup = demo.lookup(DEMO_SITE)
    assert len(detail.trends) > 1
    assert [p.date for p in detail.trends] == sorted(p.date for p in detail.trends)
    assert (detail.trends[-1].dr, detail.trends[-1].true_dr) == (
        lookup.authority.dr,
        lookup.authority.true_dr,
    )
    last, before = detail.trends[-1], detail.trends[-2]
    assert last.dr - before.dr == lookup.changes.dr_weekly_change  # type: ignore[operator]
    assert last.true_dr - before.true_dr == lookup.changes.true_dr_weekly_change  # type: ignore[operator]


def test_truedr_breakdown_adds_up_to_the_gap(demo: ApiClient) -> None:
    report = demo.site_truedr(DEMO_SITE)
    assert report.dr is not None and report.true_dr is not None and report.breakdown
    total = sum(s.impact or 0 for s in report.breakdown)
    assert round(total, 1) == report.true_dr - report.dr


def test_owner_operations_are_404_for_a_site_you_do_not_own(demo: ApiClient) -> None:
    for call in (
        lambda: demo.site(FREE_SITE),
        lambda: demo.site_truedr(FREE_SITE),
        lambda: demo.ai_visibility(FREE_SITE),
        lambda: demo.export(FREE_SITE),
        lambda: demo.monitor(FREE_SITE),
        lambda: demo.verify(f"https://{FREE_SITE}/"),
        lambda: demo.gsc_performance(FREE_SITE),
        lambda: demo.gsc_audit(FREE_SITE),
    ):
        with pytest.raises(errors.NotFoundError):
            call()


# --- AI visibility ----------------------------------------------------------------------------


def test_ai_visibility_snapshot_is_consistent(demo: ApiClient) -> None:
    view = demo.ai_visibility(DEMO_SITE)
    snap = view.snapshot
    assert view.status == "ready" and snap is not None and view.prompts
    assert snap.total_answers == len(snap.answers)
    assert snap.mentioned_answers == sum(1 for a in snap.answers if a.mentioned)
    assert snap.score == round(100 * snap.mentioned_answers / snap.total_answers, 1)  # type: ignore[operator]
    assert {p.platform for p in snap.by_platform} == {a.platform for a in snap.answers}
    assert view.history[-1].score == snap.score
    assert view.delta == round(view.history[-1].score - view.history[-2].score, 1)  # type: ignore[operator]


def test_ai_prompts_add_remove_and_reset(demo: ApiClient) -> None:
    before = demo.ai_visibility(DEMO_SITE).prompts
    added = demo.add_ai_prompt(DEMO_SITE, "  Which   analytics tool respects privacy? ", location="US")
    new = [p for p in added.prompts if p.id not in {b.id for b in before}]
    assert [(p.prompt, p.location) for p in new] == [("Which analytics tool respects privacy?", "US")]
    with pytest.raises(errors.BadRequestError):
        demo.add_ai_prompt(DEMO_SITE, new[0].prompt.upper())  # a duplicate, whatever the case
    removed = demo.remove_ai_prompt(DEMO_SITE, new[0].id)
    assert [p.id for p in removed.prompts] == [p.id for p in before]
    with pytest.raises(errors.NotFoundError):
        demo.remove_ai_prompt(DEMO_SITE, new[0].id)
    tracked = [k.keyword for k in demo.tracked_keywords(DEMO_SITE.replace(".", "-")).keywords]
    reset = demo.reset_ai_prompts(DEMO_SITE)
    assert len(reset.prompts) == len(tracked)
    assert all(any(k in p.prompt for k in tracked) for p in reset.prompts)


def test_prompt_length_is_checked_before_sending(demo: ApiClient, sandbox: SandboxServer) -> None:
    served = _served(sandbox)
    for text in ("short", "x" * 141, "   "):
        with pytest.raises(errors.InvalidInputError):
            demo.add_ai_prompt(DEMO_SITE, text)
    with pytest.raises(errors.InvalidInputError):
        demo.remove_ai_prompt(DEMO_SITE, "not an id!")
    assert _served(sandbox) == served


def test_a_run_adds_one_history_entry_and_is_weekly(demo: ApiClient) -> None:
    runs = len(demo.ai_visibility(DEMO_SITE).history)
    assert demo.run_ai_visibility(DEMO_SITE).status == "ready"
    assert len(demo.ai_visibility(DEMO_SITE).history) == runs + 1
    with pytest.raises(errors.ConflictError):
        demo.run_ai_visibility(DEMO_SITE)


def test_the_free_plan_reads_ai_visibility_but_cannot_change_it(free: ApiClient) -> None:
    assert free.ai_visibility(FREE_SITE).prompts
    for write in (
        lambda: free.add_ai_prompt(FREE_SITE, "tiny house on a budget"),
        lambda: free.reset_ai_prompts(FREE_SITE),
        lambda: free.run_ai_visibility(FREE_SITE),
        lambda: free.remove_ai_prompt(FREE_SITE, free.ai_visibility(FREE_SITE).prompts[0].id),
    ):
        with pytest.raises(errors.PaymentRequiredError):
            write()


# --- export, monitor, verify ------------------------------------------------------------------


def test_export_carries_the_record_authority_and_snippets(demo: ApiClient) -> None:
    exported = demo.export(f"https://{DEMO_SITE}/pricing")
    assert exported.site is not None and exported.site.domain == DEMO_SITE
    assert (
        exported.authority is not None
        and exported.authority.true_dr == demo.lookup(DEMO_SITE).authority.true_dr
    )
    assert exported.snippets is not None and exported.snippets.badge == demo.snippets(DEMO_SITE).badge


def test_monitor_all_sites_or_one_weekly_or_daily(demo: ApiClient) -> None:
    weekly = demo.monitor()
    assert weekly.cadence == "weekly" and [s.domain for s in weekly.sites] == list(ACCOUNTS[DEMO_KEY].sites)
    one = demo.monitor(DEMO_SITE, daily=True)
    assert one.cadence == "daily" and [s.domain for s in one.sites] == [DEMO_SITE]
    for site in weekly.sites:
        links = site.backlinks
        assert links is not None
        lost_more = (links.lost_referring_domains or 0) > (links.new_referring_domains or 0)
        assert lost_more == any("Lost" in a.message for a in site.alerts)


def test_verify_reports_the_badge_and_is_recorded(demo: ApiClient) -> None:
    result = demo.verify(f"{DEMO_SITE}/about")
    assert result.url == f"https://{DEMO_SITE}/about" and result.domain == DEMO_SITE
    assert result.verified == site_profile(DEMO_SITE).verified and result.message
    record = next(s for s in demo.sites().sites if s.domain == DEMO_SITE)
    assert record.last_verified_at is not None


# --- Search Console ---------------------------------------------------------------------------


@pytest.mark.parametrize("range_", GSC_RANGES)
def test_gsc_performance_for_every_range(demo: ApiClient, range_: str) -> None:
    perf = demo.gsc_performance(CONNECTED, range_)
    data = perf.performance
    assert perf.range == range_ and len(data.series) == RANGE_DAYS[range_]
    assert data.totals is not None and data.previous_totals is not None
    assert data.totals.clicks == sum(d.clicks or 0 for d in data.series)
    assert data.snapshot is not None and data.snapshot.queries and data.snapshot.devices
    assert all(row.label for row in data.snapshot.countries)


def test_gsc_errors(demo: ApiClient, free: ApiClient, sandbox: SandboxServer) -> None:
    served = _served(sandbox)
    with pytest.raises(errors.InvalidInputError):
        demo.gsc_performance(CONNECTED, "7d")
    assert _served(sandbox) == served
    with pytest.raises(errors.BadRequestError):
        demo.gsc_performance(NOT_CONNECTED)
    with pytest.raises(errors.PaymentRequiredError):
        free.gsc_performance(FREE_SITE)


def test_gsc_audit_latest_then_a_run_with_cooldown(demo: ApiClient) -> None:
    latest = demo.gsc_audit(CONNECTED)
    assert latest.audit is not None and latest.audit.sitemaps and latest.cooldown_hours
    fresh = demo.run_gsc_audit(CONNECTED)
    assert fresh.audit is not None and fresh.audit.ran_at > latest.audit.ran_at  # type: ignore[operator]
    assert demo.gsc_audit(CONNECTED).audit == fresh.audit
    with pytest.raises(errors.ConflictError):
        demo.run_gsc_audit(CONNECTED)


# --- timeouts and the error vocabulary for every operation -------------------------------------


def test_slow_owner_runs_get_the_long_timeout() -> None:
    seen: list[tuple[str, float]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        timeout = request.extensions["timeout"]["read"]
        seen.append((request.method, timeout))
        return httpx.Response(200, json={"prompts": [], "audit": None})

    with ApiClient("http://127.0.0.1:9", DEMO_KEY, transport=httpx.MockTransport(handler)) as client:
        client.run_ai_visibility(DEMO_SITE)
        client.run_gsc_audit(DEMO_SITE)
        client.gsc_audit(DEMO_SITE)
    assert [t for _, t in seen] == [SLOW_TIMEOUT_S, SLOW_TIMEOUT_S, DEFAULT_TIMEOUT_S]


def _calls(client: ApiClient) -> dict[str, Callable[[], object]]:
    draft = client.preview_exchange(DEMO_SITE, _candidate(client), "Subject", "Message")
    prompt_id = client.ai_visibility(DEMO_SITE).prompts[0].id
    return {
        "find": lambda: client.find(limit=3),
        "exchange_candidates": lambda: client.exchange_candidates(DEMO_SITE, limit=3),
        "preview_exchange": lambda: client.preview_exchange(DEMO_SITE, draft.target, "Subject", "Message"),
        "approve_exchange": lambda: client.approve_exchange(draft),
        "sites": client.sites,
        "submit_site": lambda: client.submit_site(new_domain("fault-probe-")),
        "site": lambda: client.site(DEMO_SITE),
        "site_truedr": lambda: client.site_truedr(DEMO_SITE),
        "ai_visibility": lambda: client.ai_visibility(DEMO_SITE),
        "add_ai_prompt": lambda: client.add_ai_prompt(DEMO_SITE, "a question for the fault probe"),
        "remove_ai_prompt": lambda: client.remove_ai_prompt(DEMO_SITE, prompt_id),
        "reset_ai_prompts": lambda: client.reset_ai_prompts(DEMO_SITE),
        "run_ai_visibility": lambda: client.run_ai_visibility(DEMO_SITE),
        "export": lambda: client.export(DEMO_SITE),
        "monitor": client.monitor,
        "verify": lambda: client.verify(f"https://{DEMO_SITE}/"),
        "gsc_performance": lambda: client.gsc_performance(CONNECTED),
        "gsc_audit": lambda: client.gsc_audit(CONNECTED),
        "run_gsc_audit": lambda: client.run_gsc_audit(CONNECTED),
    }


def test_every_growth_operation_has_a_client_call(demo: ApiClient) -> None:
    assert set(_calls(demo)) == set(GROWTH_OPERATIONS)


@pytest.mark.parametrize(
    ("fault", "error"),
    [
        (400, errors.BadRequestError),
        ("402-gate", errors.PaymentRequiredError),
        (404, errors.NotFoundError),
        (503, errors.UnavailableError),
        ("badtypes", errors.InvalidResponseError),
        ("nonjson", errors.InvalidResponseError),
    ],
)
def test_every_growth_operation_speaks_the_error_vocabulary(
    sandbox: SandboxServer, fault: int | str, error: type[errors.ApiError]
) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=5.0, max_retries=0) as client:
        calls = _calls(client)
        for operation, call in calls.items():
            sandbox.state.add_fault(operation, fault, times=1)
            with pytest.raises(error) as caught:
                call()
            assert caught.value.operation == operation
            if fault == "402-gate":
                assert caught.value.upgrade_url  # type: ignore[attr-defined]


def test_every_growth_operation_survives_null_signals(sandbox: SandboxServer) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=5.0) as client:
        for operation, call in _calls(client).items():
            sandbox.state.add_fault(operation, "nulls", times=1)
            call()  # parses: every signal may be null
