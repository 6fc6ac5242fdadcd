"""The client against the real sandbox over HTTP on 127.0.0.1: every method, every error status."""

from __future__ import annotations

import socket
import statistics
import time
from collections.abc import Iterator

import pytest

from client import ApiClient, errors
from sandbox import DEMO_KEY, FREE_KEY, SandboxConfig, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.data import is_listed, is_map_cold
from tests.sandbox_picks import first_domain

DEMO_SITE = ACCOUNTS[DEMO_KEY].sites[0]
FREE_SITE = ACCOUNTS[FREE_KEY].sites[0]


def _served(server: SandboxServer) -> int:
    return server.state.total_requests()


# --- every method, happy path -------------------------------------------------------------------


def test_dr_resolves_subdomains_and_urls_to_the_registrable_domain(demo: ApiClient) -> None:
    a = demo.dr("https://Blog.Stripe.com/pricing?x=1")
    b = demo.dr("stripe.com")
    assert a.domain == b.domain == "stripe.com"
    assert a.dr == b.dr and 0 <= (a.dr or 0) <= 100


def test_dr_spends_one_quota_unit_per_call_and_the_client_reports_it(demo: ApiClient) -> None:
    demo.dr("stripe.com")
    before = demo.last_quota
    demo.dr("stripe.com")  # cached on the service, still one unit
    after = demo.last_quota
    assert before is not None and after is not None
    assert before.remaining is not None and after.remaining == before.remaining - 1
    assert after.limit is not None and after.tier


def test_lookup_agrees_with_dr(demo: ApiClient) -> None:
    lookup = demo.lookup(DEMO_SITE)
    assert lookup.domain == DEMO_SITE
    assert lookup.slug == DEMO_SITE.replace(".", "-")
    assert lookup.authority.dr == demo.dr(DEMO_SITE).dr
    assert lookup.authority.confidence in ("high", "medium", "low")


def test_lookup_spends_no_quota(demo: ApiClient) -> None:
    demo.categories()
    before = demo.last_quota
    demo.lookup(DEMO_SITE)
    assert demo.last_quota is not None and before is not None
    assert demo.last_quota.remaining == before.remaining


def test_site_check_of_a_seeded_site(demo: ApiClient) -> None:
    check = demo.site_check(DEMO_SITE)
    assert check.domain == DEMO_SITE
    assert check.verdict in ("real", "suspicious", "shell", "unreachable")
    assert isinstance(check.reasons, list)


def test_trust_map_is_at_most_60_domains_by_importance(demo: ApiClient) -> None:
    tmap = demo.trust_map(DEMO_SITE)
    assert tmap.site.domain == DEMO_SITE
    assert 0 < len(tmap.domains) <= 60
    assert tmap.total_domains is not None and tmap.total_domains >= len(tmap.domains)
    importance = [d.importance for d in tmap.domains]
    assert importance == sorted(importance, reverse=True)  # type: ignore[type-var]


def test_snippets_embed_the_badge(demo: ApiClient) -> None:
    snip = demo.snippets(DEMO_SITE)
    assert snip.badge and snip.page and snip.html and snip.markdown
    assert snip.badge in snip.html


def test_categories_list_values_and_limit(demo: ApiClient) -> None:
    cats = demo.categories()
    assert cats.categories and all(c.value for c in cats.categories)
    assert cats.max_per_site is not None and cats.max_per_site >= 1


def test_keyword_report_top_10_with_median_and_user_tier(demo: ApiClient) -> None:
    report = demo.keyword_report("  best   crm software ", domain="www.example.com")
    assert report.keyword == "best crm software"
    assert [r.position for r in report.results] == list(range(1, 11))
    known = sorted(r.dr for r in report.results if r.dr is not None)
    assert report.min_dr == known[0]
    assert report.median_dr == statistics.median(known)
    assert report.user is not None and report.user.domain == "example.com"
    assert report.user.gap == report.median_dr - report.user.dr  # type: ignore[operator]
    gap = report.user.gap
    expected = "boost" if gap <= 0 else "advanced" if gap <= 10 else "ultra"  # type: ignore[operator]
    assert report.user.tier == expected


def test_keyword_report_is_cached_the_second_time(demo: ApiClient) -> None:
    first = demo.keyword_report("project management tools")
    second = demo.keyword_report("project management tools")
    assert first.cached is False and second.cached is True
    assert [r.domain for r in first.results] == [r.domain for r in second.results]


def test_keyword_suggestions_stay_in_the_rank_window(demo: ApiClient) -> None:
    sugg = demo.keyword_suggestions("hubspot.com")
    assert sugg.domain == "hubspot.com"
    assert all(4 <= (s.position or 0) <= 30 for s in sugg.suggestions)


def test_tracked_keywords_add_refresh_remove(demo: ApiClient) -> None:
    listing = demo.tracked_keywords(DEMO_SITE)  # the spec shows :slug filled with a domain
    assert listing.website.slug == DEMO_SITE.replace(".", "-")
    before = {k.keyword for k in listing.keywords}

    added = demo.add_tracked_keyword(DEMO_SITE.replace(".", "-"), "seo audit checklist")
    assert added.ok and added.target.keyword == "seo audit checklist"
    assert "seo audit checklist" in {k.keyword for k in demo.tracked_keywords(DEMO_SITE).keywords}

    refreshed = demo.refresh_tracked_keyword(DEMO_SITE, added.target.id)
    assert refreshed.target.id == added.target.id

    removed = demo.remove_tracked_keyword(DEMO_SITE, added.target.id)
    assert removed.ok and removed.removed == added.target.id
    assert {k.keyword for k in demo.tracked_keywords(DEMO_SITE).keywords} == before


# --- every error status ----------------------------------------------------------------------------


def test_bad_input_is_refused_before_any_request(demo: ApiClient, sandbox: SandboxServer) -> None:
    before = _served(sandbox)
    for call in (
        lambda: demo.lookup("../../etc/passwd"),
        lambda: demo.dr("not a domain"),
        lambda: demo.keyword_report("   "),
        lambda: demo.remove_tracked_keyword(DEMO_SITE, "../x"),
        lambda: demo.tracked_keywords("a/b"),
    ):
        with pytest.raises(errors.InvalidInputError):
            call()
    assert _served(sandbox) == before


def test_400_from_the_service(demo: ApiClient, sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("lookup", 400)
    with pytest.raises(errors.BadRequestError) as info:
        demo.lookup(DEMO_SITE)
    assert info.value.status == 400 and info.value.message


@pytest.mark.parametrize("key", [None, "vdr_not_a_real_key"])
def test_401_for_missing_or_invalid_key(sandbox: SandboxServer, key: str | None) -> None:
    with ApiClient(sandbox.base_url, key) as client, pytest.raises(errors.AuthError) as info:
        client.lookup(DEMO_SITE)
    assert info.value.status == 401
    if key:
        assert key not in info.value.message


def test_402_gate_carries_the_upgrade_link(free: ApiClient) -> None:
    with pytest.raises(errors.PaymentRequiredError) as info:
        free.keyword_report("crm software")
    gate = info.value
    assert gate.is_gate
    assert gate.blocked_feature == "keyword_research"
    assert gate.upgrade_url and gate.upgrade_url.startswith("http")
    assert gate.required_plan


def test_402_when_the_quota_is_spent() -> None:
    with SandboxServer(SandboxConfig(quota=2)) as server, ApiClient(server.base_url, DEMO_KEY) as client:
        client.dr("stripe.com")
        client.dr("github.com")
        assert client.last_quota is not None and client.last_quota.remaining == 0
        with pytest.raises(errors.PaymentRequiredError) as info:
            client.dr("stripe.com")
    assert not info.value.is_gate


def test_404_for_an_unlisted_site(demo: ApiClient) -> None:
    unlisted = first_domain(lambda d: not is_listed(d), "unlisted-demo-")
    with pytest.raises(errors.NotFoundError) as info:
        demo.lookup(unlisted)
    assert info.value.status == 404
    assert demo.dr(unlisted).listed is False  # DR still works for any domain


def test_404_for_a_site_the_key_does_not_own(demo: ApiClient, free: ApiClient) -> None:
    with pytest.raises(errors.NotFoundError):
        demo.tracked_keywords(FREE_SITE)
    with pytest.raises(errors.NotFoundError):
        free.tracked_keywords(DEMO_SITE)
    assert free.tracked_keywords(FREE_SITE).website.slug == FREE_SITE.replace(".", "-")


def test_409_for_a_keyword_already_tracked(demo: ApiClient) -> None:
    existing = demo.tracked_keywords(DEMO_SITE).keywords[0].keyword
    with pytest.raises(errors.ConflictError):
        demo.add_tracked_keyword(DEMO_SITE, existing.upper())


def test_429_retry_after_is_honoured_then_succeeds() -> None:
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        time.sleep(seconds)

    with (
        SandboxServer(SandboxConfig(rate_limit=1)) as server,
        ApiClient(server.base_url, DEMO_KEY, sleep=sleep) as client,
    ):
        client.categories()  # takes the only token
        client.categories()  # 429 Retry-After: 1 → the client waits, then succeeds
        counts = server.state.total_requests()
    assert len(slept) == 1 and 0.9 <= slept[0] <= 2, f"waited {slept}, not the Retry-After of 1 s"
    assert counts == 3  # first call, the 429, the retry


def test_429_with_a_long_retry_after_is_raised_not_slept(sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("lookup", 429, retry_after=120)
    slept: list[float] = []
    with ApiClient(sandbox.base_url, DEMO_KEY, sleep=slept.append) as client:
        with pytest.raises(errors.RateLimitedError) as info:
            client.lookup(DEMO_SITE)
    assert slept == []  # raised at once, for the caller to say when to try again
    assert info.value.retry_after == 120
    assert sandbox.state.total_requests() == 1


def test_503_cold_map_is_retried_boundedly_then_raised(demo: ApiClient, sandbox: SandboxServer) -> None:
    cold = first_domain(lambda d: is_listed(d) and is_map_cold(d), "coldmap-")
    before = _served(sandbox)
    with pytest.raises(errors.UnavailableError) as info:
        demo.trust_map(cold)
    assert "Trust Map" in info.value.message
    assert _served(sandbox) - before == 1 + demo.max_retries


def test_503_then_success_is_recovered_for_reads(demo: ApiClient, sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("lookup", 503, times=1)
    before = _served(sandbox)
    assert demo.lookup(DEMO_SITE).domain == DEMO_SITE
    assert _served(sandbox) - before == 2


def test_writes_are_never_retried(demo: ApiClient, sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("add_tracked_keyword", 503, times=1)
    before = _served(sandbox)
    with pytest.raises(errors.UnavailableError):
        demo.add_tracked_keyword(DEMO_SITE, "never retried keyword")
    assert _served(sandbox) - before == 1
    assert "never retried keyword" not in {k.keyword for k in demo.tracked_keywords(DEMO_SITE).keywords}


def test_429_on_a_write_is_reported_not_retried(demo: ApiClient, sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("remove_tracked_keyword", 429, times=1, retry_after=1)
    target = demo.tracked_keywords(DEMO_SITE).keywords[0].id
    before = _served(sandbox)
    with pytest.raises(errors.RateLimitedError):
        demo.remove_tracked_keyword(DEMO_SITE, target)
    assert _served(sandbox) - before == 1


def test_timeout_becomes_a_timeout_error_and_is_not_retried(sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("lookup", "timeout")
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=0.3, max_retries=2) as client:
        with pytest.raises(errors.ApiTimeoutError):
            client.lookup(DEMO_SITE)
    assert sandbox.state.total_requests() == 1  # one timeout, not three


def test_non_ascii_slugs_are_refused_before_any_request(demo: ApiClient, sandbox: SandboxServer) -> None:
    with pytest.raises(errors.InvalidInputError):
        demo.tracked_keywords("bücher-de")
    assert sandbox.state.total_requests() == 0


@pytest.fixture
def closed_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    yield port


def test_connection_refused_becomes_a_transport_error(closed_port: int) -> None:
    with ApiClient(f"http://127.0.0.1:{closed_port}", DEMO_KEY, max_retries=1) as client:
        with pytest.raises(errors.TransportError) as info:
            client.lookup(DEMO_SITE)
    assert not isinstance(info.value, errors.ApiTimeoutError)


@pytest.mark.parametrize("fault", ["nonjson", "badtypes"])
def test_malformed_answers_become_invalid_response_errors(
    demo: ApiClient, sandbox: SandboxServer, fault: str
) -> None:
    sandbox.state.add_fault("lookup", fault)
    with pytest.raises(errors.InvalidResponseError):
        demo.lookup(DEMO_SITE)


@pytest.mark.parametrize(
    ("operation", "call"),
    [
        ("lookup", lambda c: c.lookup(DEMO_SITE)),
        ("trust_map", lambda c: c.trust_map(DEMO_SITE)),
        ("site_check", lambda c: c.site_check(DEMO_SITE)),
        ("keyword_report", lambda c: c.keyword_report("crm", domain=DEMO_SITE)),
        ("tracked_keywords", lambda c: c.tracked_keywords(DEMO_SITE)),
    ],
)
def test_nulls_in_every_nullable_field_still_parse(
    demo: ApiClient, sandbox: SandboxServer, operation, call
) -> None:  # type: ignore[no-untyped-def]
    sandbox.state.add_fault(operation, "nulls")
    assert call(demo) is not None


def test_the_api_key_never_appears_in_errors(sandbox: SandboxServer) -> None:
    marker = "vdr_marker_never_shown_42"
    with ApiClient(sandbox.base_url, marker) as client, pytest.raises(errors.AuthError) as info:
        client.lookup(DEMO_SITE)
    assert marker not in str(info.value) and marker not in repr(info.value.__dict__)
