"""The sandbox's growth and site-management operations on the wire, checked with raw httpx.

Deliberately not through ``client.api`` (as in test_sandbox.py): these pin paths, top-level keys,
camelCase names, statuses and bodies of the shapes the contract notes give, so a client bug cannot
hide a sandbox bug or the reverse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from client.growth_inputs import DiscoveryFilters
from client.growth_models import (
    Discovery,
    ExchangeCandidates,
    ExchangeContact,
    Monitor,
    SiteDetail,
    SiteExport,
    SiteList,
    SubmittedSite,
    TrueDrReport,
    Verification,
)
from client.visibility_models import AiPrompts, AiVisibility, GscAuditResult, GscPerformance
from sandbox import DEMO_KEY, FREE_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.data import DEMO_SITES, MAX_CATEGORIES_PER_SITE
from sandbox.discovery import CONTACT_LIMITS, candidate_domains
from sandbox.faults import GROWTH_OPERATIONS, parse_operation
from tests.sandbox_picks import new_domain
from tests.wire.wire_format import API, GATE_FIELDS, assert_camel_case, auth

DEMO_SITE = ACCOUNTS[DEMO_KEY].sites[0]
FREE_SITE = ACCOUNTS[FREE_KEY].sites[0]
CONNECTED = next(s for s in ACCOUNTS[DEMO_KEY].sites if DEMO_SITES[s].gsc_connected)


@pytest.fixture(scope="module")
def http(server: SandboxServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url + API, timeout=5.0) as client:
        yield client


def get(http: httpx.Client, path: str, key: str | None = DEMO_KEY, **kw: Any) -> httpx.Response:
    return http.get(path, headers=auth(key), **kw)


def post(http: httpx.Client, path: str, body: Any, key: str | None = DEMO_KEY) -> httpx.Response:
    return http.post(path, headers=auth(key), json=body)


def candidate(http: httpx.Client, domain: str = DEMO_SITE, key: str = DEMO_KEY) -> str:
    body = get(http, "/find", key, params={"exchangesFor": domain, "limit": "1"}).json()
    return body["opportunities"]["candidates"][0]["slug"]


def proposal(target: str, **extra: Any) -> dict[str, Any]:
    return {"exchangesFor": DEMO_SITE, "target": target, "subject": "Hi", "message": "Swap links?", **extra}


# --- shapes -----------------------------------------------------------------------------------


def test_find_answers_under_find_with_lookup_objects(http: httpx.Client) -> None:
    r = get(http, "/find", params={"limit": "5", "minTrueDr": "30"})
    assert r.status_code == 200 and r.json()["ok"] is True
    body = r.json()["find"]
    assert set(body) == {"filters", "sites"} and len(body["sites"]) == 5
    first = body["sites"][0]
    assert {"domain", "slug", "authority", "changes", "evidence", "verified"} <= set(first)
    assert body["filters"]["minTrueDr"] == 30 and body["filters"]["limit"] == 5
    assert_camel_case(r.json())


def test_exchanges_for_and_its_newer_name_give_the_same_candidates(http: httpx.Client) -> None:
    a = get(http, "/find", params={"exchangesFor": DEMO_SITE}).json()
    b = get(http, "/find", params={"opportunitiesFor": DEMO_SITE}).json()
    assert a == b
    body = a["opportunities"]
    assert body["domain"] == DEMO_SITE and body["redacted"] is False
    assert all({"slug", "title", "opportunity"} <= set(c) for c in body["candidates"])
    assert all(set(c["opportunity"]) == {"type", "reason"} for c in body["candidates"])


@pytest.mark.parametrize(
    "params",
    [{"limit": "51"}, {"limit": "0"}, {"limit": "many"}, {"minTrueDr": "101"}, {"category": "nope"}],
)
def test_find_refuses_out_of_range_filters(http: httpx.Client, params: dict[str, str]) -> None:
    r = get(http, "/find", params=params)
    assert r.status_code == 400 and set(r.json()) == {"error"}


def test_contact_preview_then_send_with_quota(http: httpx.Client, server: SandboxServer) -> None:
    target = candidate(http)
    preview = post(http, "/find", proposal(target, dryRun=True))
    assert preview.status_code == 200
    contact = preview.json()["contact"]
    assert contact["dryRun"] is True and contact["sent"] is False
    assert set(contact["quota"]) == {"used", "limit", "plan"} and contact["quota"]["used"] == 0
    assert contact["to"]["slug"] == target
    sent = post(http, "/find", proposal(target)).json()["contact"]
    assert sent["sent"] is True and sent["quota"]["used"] == 1
    assert post(http, "/find", proposal(target)).status_code == 409  # one proposal per partner
    assert_camel_case(sent)


@pytest.mark.parametrize(
    "body",
    [
        {"exchangesFor": DEMO_SITE, "target": "x-com", "message": "no subject"},
        {"exchangesFor": DEMO_SITE, "target": "x-com", "subject": "no message", "message": "  "},
        {"exchangesFor": DEMO_SITE, "subject": "s", "message": "m"},
        {"exchangesFor": DEMO_SITE, "target": "x-com", "subject": "s", "message": "m", "dryRun": "yes"},
        ["not", "an", "object"],
    ],
)
def test_contact_without_subject_message_or_target_is_400(http: httpx.Client, body: Any) -> None:
    r = post(http, "/find", body)
    assert r.status_code == 400 and r.json()["error"]


def test_contact_quota_runs_out_with_a_402(http: httpx.Client) -> None:
    limit = CONTACT_LIMITS["pro"]
    assert limit is not None
    targets = candidate_domains(
        DEMO_SITE, DiscoveryFilters(include_unverified=True), ACCOUNTS[DEMO_KEY].sites
    )
    assert len(targets) > limit
    for target in targets[:limit]:
        assert post(http, "/find", proposal(target)).status_code == 200
    r = post(http, "/find", proposal(targets[limit]))
    assert r.status_code == 402 and set(r.json()) == {"error"}  # a spent quota, not a plan gate


def test_contact_gate_for_the_free_plan(http: httpx.Client) -> None:
    body = {**proposal("x-com"), "exchangesFor": FREE_SITE}
    r = post(http, "/find", body, key=FREE_KEY)
    assert r.status_code == 402 and set(r.json()) == GATE_FIELDS


def test_sites_submit_and_site_check(http: httpx.Client) -> None:
    domain = new_domain("wire-submit-")
    r = post(http, "/sites", {"url": f"https://{domain}", "categories": ["saas"], "siteCheck": True})
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"ok", "site", "siteCheck"} and body["site"]["slug"] == domain.replace(".", "-")
    check = get(http, f"/site-check/{domain}")
    assert check.status_code == 200 and check.json()["siteCheck"] == body["siteCheck"]
    listed = get(http, "/sites").json()
    assert set(listed) == {"ok", "sites", "siteLimit"} and domain in [s["domain"] for s in listed["sites"]]
    assert_camel_case(listed)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"url": 42},
        {"url": "ftp://example.org"},
        {"url": "https://ok-domain.com", "categories": "saas"},
        {"url": "https://ok-domain.com", "categories": ["nope"]},
        {
            "url": "https://ok-domain.com",
            "categories": ["saas", "finance", "travel", "health"][: MAX_CATEGORIES_PER_SITE + 1],
        },
        {"url": "https://ok-domain.com", "siteCheck": "yes"},
        {"url": "https://ok-domain.com", "title": "t" * 121},
    ],
)
def test_submit_validation_is_400(http: httpx.Client, body: dict[str, Any]) -> None:
    r = post(http, "/sites", body)
    assert r.status_code == 400 and set(r.json()) == {"error"}


def test_submit_gate_for_the_free_plan(http: httpx.Client) -> None:
    r = post(http, "/sites", {"url": new_domain("wire-free-")}, key=FREE_KEY)
    assert r.status_code == 402 and set(r.json()) == GATE_FIELDS


def test_owner_paths_answer_under_their_keys(http: httpx.Client) -> None:
    slug = DEMO_SITE.replace(".", "-")
    assert set(get(http, f"/sites/{slug}").json()) == {"ok", "site"}
    truedr = get(http, f"/sites/{slug}/truedr", params={"detailed": "true"}).json()
    assert {"trueDr", "dr", "breakdown"} <= set(truedr)
    assert set(get(http, f"/export/{DEMO_SITE}").json()["export"]) == {"site", "authority", "snippets"}
    monitor = get(http, "/monitor", params={"daily": "true", "domain": DEMO_SITE}).json()["monitor"]
    assert monitor["cadence"] == "daily" and len(monitor["sites"]) == 1
    assert {"authority", "changes", "backlinks", "trafficValidation", "alerts", "summary"} <= set(
        monitor["sites"][0]
    )
    verified = post(http, "/verify", {"url": f"https://{DEMO_SITE}/"}).json()
    assert set(verified) == {"ok", "verification"}
    vis = get(http, f"/sites/{slug}/ai-visibility").json()
    assert {"status", "snapshot", "pageOutreach", "prompts", "history", "delta", "nextRefreshAt"} <= set(vis)
    assert re.fullmatch(r"prm_\d+", vis["prompts"][0]["id"])
    assert_camel_case(vis)


def test_owner_paths_are_404_for_another_keys_site(http: httpx.Client) -> None:
    slug = FREE_SITE.replace(".", "-")
    for r in (
        get(http, f"/sites/{slug}"),
        get(http, f"/sites/{FREE_SITE}/truedr"),
        get(http, f"/sites/{slug}/ai-visibility"),
        http.delete(f"/sites/{slug}/ai-visibility", headers=auth(), params={"promptId": "prm_101"}),
        get(http, f"/export/{FREE_SITE}"),
        get(http, "/monitor", params={"domain": FREE_SITE}),
        post(http, "/verify", {"url": f"https://{FREE_SITE}/"}),
        get(http, f"/sites/{slug}/gsc-performance"),
        http.post(f"/sites/{slug}/gsc-audit", headers=auth()),
    ):
        assert r.status_code == 404 and set(r.json()) == {"error"}, r.request.url


@pytest.mark.parametrize(
    "body",
    [
        {"prompt": "short"},
        {"prompt": "x" * 141},
        {"prompt": 12},
        {"action": "explode"},
        {"action": "run", "extra": 1},
        None,
    ],
)
def test_ai_visibility_write_bodies(http: httpx.Client, body: Any) -> None:
    r = post(http, f"/sites/{DEMO_SITE}/ai-visibility", body)
    assert r.status_code == 400 and r.json()["error"]


def test_ai_visibility_delete_needs_a_known_prompt_id(http: httpx.Client) -> None:
    path = f"/sites/{DEMO_SITE}/ai-visibility"
    assert http.delete(path, headers=auth()).status_code == 400
    assert http.delete(path, headers=auth(), params={"promptId": "prm_0"}).status_code == 404
    first = get(http, path).json()["prompts"][0]["id"]
    r = http.delete(path, headers=auth(), params={"promptId": first})
    assert r.status_code == 200 and first not in [p["id"] for p in r.json()["prompts"]]


def test_gsc_ranges_and_errors(http: httpx.Client) -> None:
    path = f"/sites/{CONNECTED}/gsc-performance"
    body = get(http, path, params={"range": "3m"}).json()
    assert body["range"] == "3m"
    assert {"connection", "series", "totals", "previousTotals", "snapshot"} <= set(body["performance"])
    assert set(body["performance"]["snapshot"]) == {"queries", "pages", "countries", "devices"}
    assert all(
        {"clicks", "impressions", "ctr", "position"} <= set(row) for row in body["performance"]["series"]
    )
    assert get(http, path, params={"range": "7d"}).status_code == 400
    other = next(s for s in ACCOUNTS[DEMO_KEY].sites if not DEMO_SITES[s].gsc_connected)
    assert get(http, f"/sites/{other}/gsc-performance").status_code == 400
    gated = get(http, f"/sites/{FREE_SITE}/gsc-performance", key=FREE_KEY)
    assert gated.status_code == 402 and set(gated.json()) == GATE_FIELDS


def test_gsc_audit_run_has_a_cooldown(http: httpx.Client) -> None:
    path = f"/sites/{CONNECTED}/gsc-audit"
    before = get(http, path).json()
    assert before["audit"]["ranAt"] and before["cooldownHours"] == 12
    first = http.post(path, headers=auth())
    assert first.status_code == 200 and first.json()["audit"]["ranAt"] > before["audit"]["ranAt"]
    assert http.post(path, headers=auth()).status_code == 409


def test_reset_forgets_submissions_proposals_and_runs(http: httpx.Client, server: SandboxServer) -> None:
    domain = new_domain("wire-reset-")
    seeded = get(http, f"/sites/{DEMO_SITE}/ai-visibility").json()
    post(http, "/sites", {"url": domain, "siteCheck": True})
    post(http, "/find", proposal(candidate(http)))
    post(http, f"/sites/{DEMO_SITE}/ai-visibility", {"action": "run"})
    server.state.reset()
    assert domain not in [s["domain"] for s in get(http, "/sites").json()["sites"]]
    assert get(http, f"/site-check/{domain}").status_code == 404
    assert get(http, f"/sites/{DEMO_SITE}/ai-visibility").json() == seeded
    with server.state.growth() as growth:
        assert growth.outreach.sent == []


def test_two_sandboxes_give_identical_growth_reads(server: SandboxServer) -> None:
    paths = [
        "/find?limit=10",
        f"/find?exchangesFor={DEMO_SITE}",
        "/sites",
        f"/sites/{DEMO_SITE}",
        f"/sites/{DEMO_SITE}/truedr?detailed=true",
        f"/sites/{DEMO_SITE}/ai-visibility",
        f"/sites/{CONNECTED}/gsc-performance?range=28d",
        f"/sites/{CONNECTED}/gsc-audit",
    ]
    with SandboxServer() as other:

        def bodies(s: SandboxServer) -> list[str]:
            with httpx.Client(base_url=s.base_url + API) as client:
                return [get(client, p).text.replace(s.base_url, "{base}") for p in paths]

        assert bodies(server) == bodies(other)


# --- faults -----------------------------------------------------------------------------------


def _probe(http: httpx.Client, operation: str) -> tuple[type, str | None, Callable[[], httpx.Response]]:
    slug = DEMO_SITE.replace(".", "-")
    vis = f"/sites/{slug}/ai-visibility"
    audit = f"/sites/{CONNECTED}/gsc-audit"
    probes: dict[str, tuple[type, str | None, Callable[[], httpx.Response]]] = {
        "find": (Discovery, "find", lambda: get(http, "/find", params={"limit": "2"})),
        "exchange_candidates": (
            ExchangeCandidates,
            "opportunities",
            lambda: get(http, "/find", params={"exchangesFor": DEMO_SITE, "limit": "2"}),
        ),
        "preview_exchange": (
            ExchangeContact,
            "contact",
            lambda: post(http, "/find", proposal(candidate(http), dryRun=True)),
        ),
        "approve_exchange": (
            ExchangeContact,
            "contact",
            lambda: post(http, "/find", proposal(candidate(http))),
        ),
        "sites": (SiteList, None, lambda: get(http, "/sites")),
        "submit_site": (
            SubmittedSite,
            None,
            lambda: post(http, "/sites", {"url": new_domain("probe-fault-")}),
        ),
        "site": (SiteDetail, "site", lambda: get(http, f"/sites/{slug}")),
        "site_truedr": (TrueDrReport, None, lambda: get(http, f"/sites/{slug}/truedr")),
        "ai_visibility": (AiVisibility, None, lambda: get(http, vis)),
        "add_ai_prompt": (AiPrompts, None, lambda: post(http, vis, {"prompt": "a question for the probe"})),
        "remove_ai_prompt": (
            AiPrompts,
            None,
            lambda: http.delete(vis, headers=auth(), params={"promptId": "prm_101"}),
        ),
        "reset_ai_prompts": (AiPrompts, None, lambda: post(http, vis, {"action": "reset"})),
        "run_ai_visibility": (AiPrompts, None, lambda: post(http, vis, {"action": "run"})),
        "export": (SiteExport, "export", lambda: get(http, f"/export/{DEMO_SITE}")),
        "monitor": (Monitor, "monitor", lambda: get(http, "/monitor")),
        "verify": (Verification, "verification", lambda: post(http, "/verify", {"url": DEMO_SITE})),
        "gsc_performance": (GscPerformance, None, lambda: get(http, f"/sites/{CONNECTED}/gsc-performance")),
        "gsc_audit": (GscAuditResult, None, lambda: get(http, audit)),
        "run_gsc_audit": (GscAuditResult, None, lambda: http.post(audit, headers=auth())),
    }
    assert set(probes) == set(GROWTH_OPERATIONS)
    return probes[operation]


@pytest.mark.parametrize("operation", GROWTH_OPERATIONS)
def test_each_growth_operation_can_be_faulted_by_name(
    http: httpx.Client, server: SandboxServer, operation: str
) -> None:
    assert parse_operation(operation) == operation
    model, key, call = _probe(http, operation)
    server.state.add_fault(operation, 503, times=1)
    r = call()
    assert r.status_code == 503 and set(r.json()) == {"error"} and r.headers["X-API-Tier"] == "pro"
    server.state.add_fault(operation, "badtypes", times=1)
    body = call().json()
    with pytest.raises(ValidationError):
        model.model_validate(body[key] if key else {k: v for k, v in body.items() if k != "ok"})
    server.state.add_fault(operation, "nulls", times=1)
    body = call().json()
    model.model_validate(body[key] if key else {k: v for k, v in body.items() if k != "ok"})


def test_growth_requests_are_counted(http: httpx.Client, server: SandboxServer) -> None:
    get(http, "/sites")
    get(http, "/sites")
    post(http, "/verify", {"url": DEMO_SITE})
    assert server.state.count("GET", f"{API}/sites") == 2
    assert server.state.count("POST", f"{API}/verify") == 1


def test_growth_operations_need_a_key(http: httpx.Client) -> None:
    for r in (
        get(http, "/find", key=None),
        get(http, "/sites", key="vdr_wrong"),
        post(http, "/verify", {}, key=None),
    ):
        assert r.status_code == 401 and set(r.json()) == {"error"}
