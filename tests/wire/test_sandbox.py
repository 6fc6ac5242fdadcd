"""The sandbox's wire format and behaviour, checked with raw httpx against a real server on 127.0.0.1.

Deliberately not through ``client.api``: these tests pin what goes over the wire (paths, top-level
keys, camelCase names, statuses, headers), so a client bug cannot hide a sandbox bug or the reverse.
"""

from __future__ import annotations

import hashlib
import json
import queue
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from client.models import (
    Categories,
    DomainRating,
    KeywordReport,
    KeywordSuggestions,
    Lookup,
    SiteCheck,
    Snippets,
    TargetRemoval,
    TargetWrite,
    TrackedKeywords,
    TrustMap,
)
from sandbox import DEMO_KEY, FREE_KEY, SandboxConfig, SandboxServer
from sandbox.accounts import ACCOUNTS, OWNED_SITES
from sandbox.data import KNOWN_SITES, is_listed, is_map_cold
from sandbox.faults import HOSTILE_MARKDOWN, HOSTILE_TIER, OPERATIONS
from sandbox.keyword_data import ctr, difficulty
from sandbox.site_checks import SEEDED_SITE_CHECKS
from sandbox.suggestions import suggestions
from tests.polling import until
from tests.sandbox_picks import first_domain
from tests.wire.wire_format import API, GATE_FIELDS, assert_camel_case, auth

REPO = Path(__file__).resolve().parents[2]
#: The real service's public root (contract notes), the form of every address in a snippet.
PUBLIC_ROOT = "https://verifieddr.com"
DEMO_SITE = ACCOUNTS[DEMO_KEY].sites[0]
FREE_SITE = ACCOUNTS[FREE_KEY].sites[0]

# Field names from the spec (api-v1.md); the contract notes add optional ones, checked where known.
DR_FIELDS = {"domain", "dr", "source", "listed", "slug"}
SITE_CHECK_FIELDS = {
    "domain",
    "verdict",
    "reasons",
    "reachable",
    "https",
    "title",
    "shell",
    "domainAgeYears",
    "rankedKeywords",
    "referringDomains",
    "backlinks",
    "spamScore",
}
SHELL_FIELDS = {"isShell", "visibleTextChars", "textRatio", "outboundLinks"}
LOOKUP_FIELDS = {"domain", "slug", "authority", "changes", "evidence", "verified"}
AUTHORITY_FIELDS = {"dr", "trueDr", "trustScore", "confidence", "trafficValidated"}
CHANGES_FIELDS = {"drWeeklyChange", "trueDrWeeklyChange", "trafficChange"}
EVIDENCE_FIELDS = {"traffic", "referringDomains", "backlinks"}
BACKLINK_FIELDS = {"sourceDomain", "dr", "url", "anchor", "follow"}
MAP_SITE_FIELDS = {"domain", "dr", "verified"}
MAP_DOMAIN_FIELDS = {"domain", "dr", "backlinks", "linkType", "status", "importance", "spamScore"}
SNIPPET_FIELDS = {"page", "badge", "html", "markdown"}
REPORT_FIELDS = {"keyword", "cached", "results", "medianDr", "minDr"}
RESULT_FIELDS = {"position", "domain", "dr"}
USER_FIELDS = {"domain", "dr", "gap", "tier"}
SUGGESTION_FIELDS = {"keyword", "position", "searchVolume"}


# --- fixtures and helpers ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def http(server: SandboxServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=5.0) as client:
        yield client


def api(http: httpx.Client, path: str, key: str | None = DEMO_KEY, **kwargs: Any) -> httpx.Response:
    return http.get(API + path, headers=auth(key), **kwargs)


def remaining(response: httpx.Response) -> int:
    return int(response.headers["X-API-Quota-Remaining"])


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def tier_rule(gap: float) -> str:
    return "boost" if gap <= 0 else "advanced" if gap <= 10 else "ultra"


# --- wire format: one test per resource ---------------------------------------------------------


def test_dr_object_under_its_key(http: httpx.Client) -> None:
    r = api(http, "/dr/stripe.com")
    body = r.json()
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert set(body) == {"ok", "dr"} and body["ok"] is True
    dr = body["dr"]
    assert set(dr) == DR_FIELDS
    assert dr["domain"] == "stripe.com" and is_int(dr["dr"]) and 0 <= dr["dr"] <= 100
    assert dr["listed"] is True and dr["source"] == "verifieddr" and dr["slug"] == "stripe-com"
    DomainRating.model_validate(dr)


def test_dr_of_an_unlisted_domain_has_no_slug(http: httpx.Client) -> None:
    unlisted = first_domain(lambda d: not is_listed(d), "unlisted-")
    dr = api(http, f"/dr/{unlisted}").json()["dr"]
    assert dr["listed"] is False and dr["slug"] is None and dr["source"] == "ahrefs"
    assert is_int(dr["dr"])


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("blog.stripe.com", "stripe.com"), ("https%3A%2F%2FShop.Example.co.uk%2Fa%3Fb%3D1", "example.co.uk")],
)
def test_subdomains_and_urls_resolve_to_the_registrable_domain(
    http: httpx.Client, raw: str, expected: str
) -> None:
    assert api(http, f"/dr/{raw}").json()["dr"]["domain"] == expected


def test_site_check_object_and_all_four_verdicts(http: httpx.Client) -> None:
    verdicts: dict[str, dict] = {}
    for domain in SEEDED_SITE_CHECKS:
        body = api(http, f"/site-check/{domain}").json()
        assert set(body) == {"ok", "siteCheck"}
        check = body["siteCheck"]
        assert set(check) == SITE_CHECK_FIELDS and check["domain"] == domain
        assert check["shell"] is None or set(check["shell"]) == SHELL_FIELDS
        assert isinstance(check["reasons"], list)
        SiteCheck.model_validate(check)
        verdicts.setdefault(check["verdict"], check)
    assert set(verdicts) == {"real", "suspicious", "shell", "unreachable"}
    assert all(verdicts[v]["reasons"] for v in ("suspicious", "shell", "unreachable"))
    assert verdicts["shell"]["shell"]["isShell"] is True
    unreachable = verdicts["unreachable"]
    assert unreachable["reachable"] is False
    assert sum(v is None for v in unreachable.values()) >= 3  # provider signals missing, still 200


def test_site_check_without_a_saved_report_is_404(http: httpx.Client) -> None:
    listed = first_domain(lambda d: is_listed(d) and d not in SEEDED_SITE_CHECKS, "listed-")
    r = api(http, f"/site-check/{listed}")
    assert r.status_code == 404
    assert set(r.json()) == {"error"} and "siteCheck" in r.json()["error"]


def test_lookup_object_with_evidence_and_working_links(http: httpx.Client, server: SandboxServer) -> None:
    body = api(http, f"/lookup/{DEMO_SITE}").json()
    assert set(body) == {"ok", "lookup"}
    lookup = body["lookup"]
    assert_camel_case(lookup)
    assert set(lookup) >= LOOKUP_FIELDS and {"title", "links"} <= set(lookup)
    assert AUTHORITY_FIELDS | {"confidenceScore"} <= set(lookup["authority"])
    assert CHANGES_FIELDS | {"drMonthlyChange", "trueDrMonthlyChange"} <= set(lookup["changes"])
    evidence = lookup["evidence"]
    assert set(evidence) >= EVIDENCE_FIELDS
    for side in ("topBacklinks", "bottomBacklinks"):
        assert len(evidence[side]) == 5 and all(set(b) == BACKLINK_FIELDS for b in evidence[side])
    authority = lookup["authority"]
    assert authority["dr"] == api(http, f"/dr/{DEMO_SITE}").json()["dr"]["dr"]
    assert authority["confidence"] in ("high", "medium", "low") and 0 <= authority["confidenceScore"] <= 1
    assert 0 <= authority["trustScore"] <= 100
    Lookup.model_validate(lookup)
    # The public links point at the sandbox itself and work without internet.
    for link in lookup["links"].values():
        assert link.startswith(server.base_url)
        assert http.get(link).status_code == 200
    badge = http.get(lookup["links"]["badge"])
    assert badge.headers["content-type"].startswith("image/svg+xml")
    assert f">{authority['dr']}<" in badge.text


def test_unlisted_domain_is_404_for_site_operations(http: httpx.Client) -> None:
    unlisted = first_domain(lambda d: not is_listed(d), "unlisted-")
    for path in ("lookup", "map", "snippets", "site-check"):
        r = api(http, f"/{path}/{unlisted}")
        assert r.status_code == 404, path
        assert set(r.json()) == {"error"} and r.json()["error"]


def test_map_is_at_most_60_by_importance_with_consistent_drs(http: httpx.Client) -> None:
    for domain in ("google.com", FREE_SITE):
        body = api(http, f"/map/{domain}").json()
        assert set(body) == {"ok", "map"}
        tmap = body["map"]
        assert MAP_SITE_FIELDS | {"title"} <= set(tmap["site"]) and tmap["site"]["domain"] == domain
        rows = tmap["domains"]
        assert len(rows) == min(tmap["totalDomains"], 60)
        assert all(set(row) == MAP_DOMAIN_FIELDS for row in rows)
        importance = [row["importance"] for row in rows]
        assert importance == sorted(importance, reverse=True)
        assert all(0 <= row["importance"] <= 100 and 0 <= row["spamScore"] <= 100 for row in rows)
        assert {row["linkType"] for row in rows} <= {"dofollow", "nofollow"}
        assert {row["status"] for row in rows} <= {"live", "lost"}
        assert len({row["domain"] for row in rows}) == len(rows)
        TrustMap.model_validate(tmap)
        for row in rows[:3]:  # each referring domain's DR is what /dr says for it
            assert api(http, f"/dr/{row['domain']}").json()["dr"]["dr"] == row["dr"]
    big = api(http, "/map/google.com").json()["map"]
    assert big["totalDomains"] > 60 and len(big["domains"]) == 60


def test_cold_map_is_503_but_never_for_owned_or_well_known_sites(http: httpx.Client) -> None:
    cold = first_domain(is_map_cold, "coldmap-")
    r = api(http, f"/map/{cold}")
    assert r.status_code == 503
    assert set(r.json()) == {"error"} and "Trust Map" in r.json()["error"]
    assert api(http, f"/lookup/{cold}").status_code == 200  # the site itself is listed
    for domain in (*OWNED_SITES, *list(KNOWN_SITES)[:5]):
        assert not is_map_cold(domain)
        assert api(http, f"/map/{domain}").status_code == 200


def test_snippets_embed_the_badge_and_link_to_the_page(http: httpx.Client, server: SandboxServer) -> None:
    body = api(http, f"/snippets/{DEMO_SITE}").json()
    assert SNIPPET_FIELDS | {"htmlDark", "htmlTrueDr", "shareText", "ogImage", "styles"} <= set(body)
    assert body["ok"] is True
    for field in ("html", "markdown", "htmlDark", "htmlTrueDr"):
        assert body["badge"] in body[field] and body["page"] in body[field], field
    assert isinstance(body["styles"], list) and body["styles"]
    Snippets.model_validate(body)
    # Snippets are pasted into other sites: like the real service's, their addresses take the public
    # form, never the sandbox's own (a pasted demo snippet pointing at 127.0.0.1 is a dead link). The
    # sandbox serves the same paths itself, so a preview can load them offline.
    public = {field: body[field] for field in ("page", "badge", "ogImage")}
    for field in ("html", "markdown", "htmlDark", "htmlTrueDr", "shareText"):
        assert server.base_url not in body[field], field
    for field, address in public.items():
        assert address.startswith(f"{PUBLIC_ROOT}/"), field
        assert http.get(server.base_url + address.removeprefix(PUBLIC_ROOT)).status_code == 200, field


def test_categories(http: httpx.Client) -> None:
    body = api(http, "/categories").json()
    assert set(body) == {"ok", "categories", "maxPerSite"}
    assert all(set(c) == {"value", "label"} for c in body["categories"])
    values = [c["value"] for c in body["categories"]]
    assert len(values) == len(set(values)) >= 10
    assert is_int(body["maxPerSite"]) and body["maxPerSite"] >= 1
    Categories.model_validate(body)


# --- keywords ---------------------------------------------------------------------------------


def test_keyword_report_top_10_median_min_and_tier(http: httpx.Client) -> None:
    params = {"keyword": "  Best   CRM software ", "domain": "www.example.com"}
    body = api(http, "/keywords", params=params).json()
    assert set(body) == {"ok", "report"}
    report = body["report"]
    assert_camel_case(report)
    assert REPORT_FIELDS | {"user", "fetchedAt"} <= set(report)
    assert report["keyword"] == "Best CRM software"
    results = report["results"]
    assert [row["position"] for row in results] == list(range(1, 11))
    assert all(RESULT_FIELDS | {"url", "title", "trackedSlug"} <= set(row) for row in results)
    known = [row["dr"] for row in results if row["dr"] is not None]
    assert report["medianDr"] == statistics.median(known) and report["minDr"] == min(known)
    user = report["user"]
    assert set(user) == USER_FIELDS and user["domain"] == "example.com"
    assert user["dr"] == api(http, "/dr/example.com").json()["dr"]["dr"]
    assert user["gap"] == report["medianDr"] - user["dr"]
    assert user["tier"] == tier_rule(user["gap"])
    KeywordReport.model_validate(report)


def test_keyword_report_cached_only_after_the_first_fetch(http: httpx.Client) -> None:
    first = api(http, "/keywords", params={"keyword": "espresso machine reviews"}).json()["report"]
    again = api(http, "/keywords", params={"keyword": "Espresso  machine reviews"}).json()["report"]
    assert first["cached"] is False and again["cached"] is True
    assert "user" not in first or first["user"] is None
    assert [r["domain"] for r in first["results"]] == [r["domain"] for r in again["results"]]


def test_keyword_rows_agree_with_dr_and_nulls_are_left_out(http: httpx.Client) -> None:
    keywords = [f"sandbox probe keyword {i}" for i in range(30)]
    rows = [
        row
        for k in keywords
        for row in api(http, "/keywords", params={"keyword": k}).json()["report"]["results"]
    ]
    nulls = sum(row["dr"] is None for row in rows)
    assert 0 < nulls < len(rows) / 4  # about 1 in 12 unresolved, never sent as 0
    sample = next(row for row in rows if row["dr"] is not None)
    assert api(http, f"/dr/{sample['domain']}").json()["dr"]["dr"] == sample["dr"]
    for row in rows:
        expected = row["domain"].replace(".", "-") if row["domain"] in OWNED_SITES else None
        assert row["trackedSlug"] == expected


def test_harder_keywords_have_stronger_results(http: httpx.Client) -> None:
    keywords = sorted((f"difficulty probe {i}" for i in range(40)), key=difficulty)

    def median(keyword: str) -> float:
        return api(http, "/keywords", params={"keyword": keyword}).json()["report"]["medianDr"]

    easy = statistics.mean(median(k) for k in keywords[:5])
    hard = statistics.mean(median(k) for k in keywords[-5:])
    assert hard > easy + 20


def test_tier_follows_the_gap_for_every_kind_of_site(http: httpx.Client) -> None:
    tiers = set()
    for domain in ("google.com", *OWNED_SITES):
        user = api(http, "/keywords", params={"keyword": "web analytics", "domain": domain}).json()
        user = user["report"]["user"]
        assert user["tier"] == tier_rule(user["gap"])
        tiers.add(user["tier"])
    assert len(tiers) >= 2


def test_keyword_input_is_validated(http: httpx.Client) -> None:
    for params in ({}, {"keyword": "   "}, {"keyword": "crm", "domain": "not a domain"}):
        r = api(http, "/keywords", params=params)
        assert r.status_code == 400, params
        assert set(r.json()) == {"error"} and r.json()["error"]


def test_keyword_report_is_gated_for_the_free_key(http: httpx.Client, server: SandboxServer) -> None:
    r = api(http, "/keywords", key=FREE_KEY, params={"keyword": "crm software"})
    assert r.status_code == 402
    gate = r.json()
    assert set(gate) == GATE_FIELDS
    assert gate["requiredPlan"] == "growth" and gate["blockedFeature"] == "keyword_research"
    assert gate["upgradeUrl"] == f"{server.base_url}/pricing"
    assert http.get(gate["upgradeUrl"]).status_code == 200
    assert r.headers["X-API-Tier"] == "free"


def test_suggestions_window_words_and_order(http: httpx.Client) -> None:
    domains = ["www.hubspot.com", *OWNED_SITES, *(f"suggest-probe-{i}.com" for i in range(5))]
    for raw in domains:
        body = api(http, f"/keywords/suggestions/{raw}").json()
        assert set(body) == {"ok", "domain", "suggestions"}
        assert body["domain"] == raw.removeprefix("www.")
        items = body["suggestions"]
        assert len(items) <= 20 and all(set(s) == SUGGESTION_FIELDS for s in items)
        assert all(4 <= s["position"] <= 30 for s in items)
        assert all(len(s["keyword"].split()) >= 2 for s in items)
        assert len({s["keyword"] for s in items}) == len(items)
        value = [s["searchVolume"] * ctr(s["position"]) for s in items]
        assert value == sorted(value, reverse=True)
        KeywordSuggestions.model_validate(body)
    empty = first_domain(lambda d: not suggestions(d), "nosuggest-")
    assert api(http, f"/keywords/suggestions/{empty}").json()["suggestions"] == []


# --- tracked keywords ---------------------------------------------------------------------------


def _sites_path(site: str) -> str:
    return f"{API}/sites/{site}/keywords"


def _listing(http: httpx.Client, site: str = DEMO_SITE, key: str = DEMO_KEY) -> dict:
    r = http.get(_sites_path(site), headers=auth(key))
    assert r.status_code == 200, r.text
    return r.json()


def test_tracked_list_shape_and_slug_or_domain(http: httpx.Client) -> None:
    by_domain = _listing(http, DEMO_SITE)
    by_slug = _listing(http, DEMO_SITE.replace(".", "-"))
    assert by_domain == by_slug
    assert {"website", "keywords", "limit", "quota"} <= set(by_domain)
    assert by_domain["website"] == {"slug": DEMO_SITE.replace(".", "-"), "url": f"https://{DEMO_SITE}"}
    assert 3 <= len(by_domain["keywords"]) <= 6 and by_domain["limit"] == 25
    assert by_domain["quota"] == {"used": 0, "limit": ACCOUNTS[DEMO_KEY].monthly_checks}
    for item in by_domain["keywords"]:
        assert {"id", "keyword", "snapshot", "lastCheckedAt", "impressions", "gscPosition"} <= set(item)
        assert item["id"].startswith("tgt_")
        assert {"medianDr", "gap", "minDr", "userDr", "tier"} <= set(item["snapshot"])
        assert item["snapshot"]["tier"] == tier_rule(item["snapshot"]["gap"])
    assert_camel_case(by_domain)
    TrackedKeywords.model_validate(by_domain)
    assert _listing(http, FREE_SITE, FREE_KEY)["quota"]["limit"] == ACCOUNTS[FREE_KEY].monthly_checks


def test_tracked_snapshot_agrees_with_the_keyword_report(http: httpx.Client) -> None:
    item = _listing(http)["keywords"][0]
    report = api(http, "/keywords", params={"keyword": item["keyword"], "domain": DEMO_SITE}).json()
    report = report["report"]
    assert item["snapshot"]["medianDr"] == report["medianDr"]
    assert item["snapshot"]["gap"] == report["user"]["gap"]


def test_tracked_add_duplicate_refresh_remove(http: httpx.Client) -> None:
    path, headers = _sites_path(DEMO_SITE), auth(DEMO_KEY)
    r = http.post(path, headers=headers, json={"keyword": "  Server side   tracking "})
    assert r.status_code == 201
    added = r.json()
    assert added == {"ok": True, "target": {"id": added["target"]["id"], "keyword": "Server side tracking"}}
    TargetWrite.model_validate(added)
    target_id = added["target"]["id"]
    assert target_id in {k["id"] for k in _listing(http)["keywords"]}

    dup = http.post(path, headers=headers, json={"keyword": "server SIDE tracking"})
    assert dup.status_code == 409 and set(dup.json()) == {"error"}

    before = next(k for k in _listing(http)["keywords"] if k["id"] == target_id)
    r = http.post(path, headers=headers, json={"action": "refresh", "id": target_id})
    assert r.status_code == 200 and r.json()["target"] == added["target"] and r.json()["ok"] is True
    after = next(k for k in _listing(http)["keywords"] if k["id"] == target_id)
    assert after["snapshot"]["prevPosition"] == before["snapshot"]["userPosition"]
    assert after["lastCheckedAt"] >= before["lastCheckedAt"]

    r = http.delete(path, headers=headers, params={"id": target_id})
    assert r.status_code == 200 and r.json() == {"ok": True, "removed": target_id}
    TargetRemoval.model_validate(r.json())
    assert target_id not in {k["id"] for k in _listing(http)["keywords"]}
    assert http.delete(path, headers=headers, params={"id": target_id}).status_code == 404
    assert http.post(path, headers=headers, json={"action": "refresh", "id": target_id}).status_code == 404


@pytest.mark.parametrize(
    "body",
    [{}, {"keyword": ""}, {"keyword": 5}, {"action": "delete", "id": "tgt_101"}, {"action": "refresh"}, [1]],
)
def test_tracked_write_with_a_bad_body_is_400(http: httpx.Client, body: Any) -> None:
    r = http.post(_sites_path(DEMO_SITE), headers=auth(DEMO_KEY), json=body)
    assert r.status_code == 400 and set(r.json()) == {"error"}


def test_tracked_delete_needs_an_id_and_non_json_is_400(http: httpx.Client) -> None:
    headers = auth(DEMO_KEY)
    assert http.delete(_sites_path(DEMO_SITE), headers=headers).status_code == 400
    r = http.post(_sites_path(DEMO_SITE), headers=headers, content=b"keyword=x")
    assert r.status_code == 400


def test_per_site_limit_is_400(http: httpx.Client) -> None:
    listing = _listing(http)
    headers = auth(DEMO_KEY)
    for i in range(listing["limit"] - len(listing["keywords"])):
        r = http.post(_sites_path(DEMO_SITE), headers=headers, json={"keyword": f"limit probe {i}"})
        assert r.status_code == 201
    r = http.post(_sites_path(DEMO_SITE), headers=headers, json={"keyword": "one too many"})
    assert r.status_code == 400 and "limit" in r.json()["error"]


def test_free_monthly_check_allowance_is_402(http: httpx.Client) -> None:
    allowance = ACCOUNTS[FREE_KEY].monthly_checks
    assert allowance is not None
    headers = auth(FREE_KEY)
    ids = []
    for i in range(allowance):
        r = http.post(_sites_path(FREE_SITE), headers=headers, json={"keyword": f"allowance probe {i}"})
        assert r.status_code == 201
        ids.append(r.json()["target"]["id"])
    assert _listing(http, FREE_SITE, FREE_KEY)["quota"] == {"used": allowance, "limit": allowance}
    r = http.post(_sites_path(FREE_SITE), headers=headers, json={"keyword": "allowance probe extra"})
    assert r.status_code == 402 and set(r.json()) == {"error"}  # a spent allowance, not a gate
    r = http.post(_sites_path(FREE_SITE), headers=headers, json={"action": "refresh", "id": ids[0]})
    assert r.status_code == 402


def test_owner_scope_is_404_for_other_keys_sites(http: httpx.Client) -> None:
    for key, site in ((FREE_KEY, DEMO_SITE), (DEMO_KEY, FREE_SITE), (DEMO_KEY, "stripe.com")):
        headers = auth(key)
        assert http.get(_sites_path(site), headers=headers).status_code == 404
        assert http.post(_sites_path(site), headers=headers, json={"keyword": "x y"}).status_code == 404
        assert http.delete(_sites_path(site), headers=headers, params={"id": "tgt_101"}).status_code == 404
    for site in ACCOUNTS[DEMO_KEY].sites:
        assert http.get(_sites_path(site), headers=auth(FREE_KEY)).status_code == 404


def test_reset_reseeds_tracked_keywords(http: httpx.Client, server: SandboxServer) -> None:
    seeded = _listing(http)
    http.post(_sites_path(DEMO_SITE), headers=auth(DEMO_KEY), json={"keyword": "reset probe"})
    assert _listing(http) != seeded
    assert http.post("/_sandbox/reset").json() == {"ok": True}
    assert _listing(http) == seeded


# --- auth, quota, headers, rate limit -------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer vdr_nope"}, {"Authorization": "vdr_demo"}, {"Authorization": "Bearer"}],
)
def test_401_without_a_valid_key(http: httpx.Client, headers: dict[str, str]) -> None:
    for path in ("/categories", f"/lookup/{DEMO_SITE}", f"/sites/{DEMO_SITE}/keywords"):
        r = http.get(API + path, headers=headers)
        assert r.status_code == 401
        assert set(r.json()) == {"error"} and r.json()["error"]
        assert "vdr_nope" not in r.text


def test_quota_headers_on_every_answer_to_a_known_key(http: httpx.Client, server: SandboxServer) -> None:
    for key, tier in ((DEMO_KEY, "pro"), (FREE_KEY, "free")):
        for path in ("/categories", "/lookup/not-listed-anywhere-404.com", "/no-such-route"):
            r = api(http, path, key=key)
            assert r.headers["X-API-Quota-Limit"] == str(server.config.quota)
            assert r.headers["X-API-Tier"] == tier
            assert 0 <= remaining(r) <= server.config.quota


def test_quota_is_spent_by_dr_and_site_check_only(http: httpx.Client) -> None:
    start = remaining(api(http, "/categories"))
    assert remaining(api(http, "/dr/stripe.com")) == start - 1
    assert remaining(api(http, "/dr/stripe.com")) == start - 2  # cached on the service, still a unit
    assert remaining(api(http, f"/site-check/{DEMO_SITE}")) == start - 3
    no_report = first_domain(lambda d: is_listed(d) and d not in SEEDED_SITE_CHECKS, "noreport-")
    r = api(http, f"/site-check/{no_report}")
    assert r.status_code == 404 and remaining(r) == start - 4  # the search for a report costs too
    assert remaining(api(http, "/dr/not%20a%20domain")) == start - 4  # refused input costs nothing
    free_paths = (
        f"/lookup/{DEMO_SITE}",
        f"/map/{DEMO_SITE}",
        f"/snippets/{DEMO_SITE}",
        "/categories",
        f"/keywords/suggestions/{DEMO_SITE}",
        f"/sites/{DEMO_SITE}/keywords",
    )
    for path in free_paths:
        assert remaining(api(http, path)) == start - 4, path
    r = api(http, "/keywords", params={"keyword": "quota probe"})
    assert remaining(r) == start - 4
    assert remaining(api(http, "/categories", key=FREE_KEY)) == start  # per key


def test_402_when_the_quota_is_spent() -> None:
    with SandboxServer(SandboxConfig(quota=2)) as small, httpx.Client(base_url=small.base_url) as http:
        assert remaining(api(http, "/dr/stripe.com")) == 1
        assert remaining(api(http, f"/site-check/{DEMO_SITE}")) == 0
        for path in ("/dr/stripe.com", f"/site-check/{DEMO_SITE}"):
            r = api(http, path)
            assert r.status_code == 402 and set(r.json()) == {"error"}  # no gate fields
            assert remaining(r) == 0
        assert api(http, f"/lookup/{DEMO_SITE}").status_code == 200
        assert api(http, "/dr/stripe.com", key=FREE_KEY).status_code == 200


def test_429_with_an_integer_retry_after_under_a_low_rate_limit() -> None:
    config = SandboxConfig(rate_limit=2)
    with SandboxServer(config) as limited, httpx.Client(base_url=limited.base_url) as http:
        statuses = [api(http, "/dr/stripe.com") for _ in range(4)]
        limited_answers = [r for r in statuses if r.status_code == 429]
        assert limited_answers, "the burst was not limited"
        r = limited_answers[0]
        assert set(r.json()) == {"error"}
        assert re.fullmatch(r"[1-9][0-9]*", r.headers["Retry-After"])
        assert r.headers["X-API-Tier"] == "pro"
        ok = [x for x in statuses if x.status_code == 200]
        assert remaining(r) == config.quota - len(ok)  # a refused request spends nothing
        assert api(http, "/categories", key=FREE_KEY).status_code == 200  # buckets are per key


def test_unknown_routes_and_methods_answer_json(http: httpx.Client) -> None:
    for path in ("/nope", "/categories/", "/dr"):
        r = api(http, path)
        assert r.status_code == 404 and set(r.json()) == {"error"}, path
    r = http.put(f"{API}/categories", headers=auth())
    assert r.status_code == 405 and set(r.json()) == {"error"}


def test_latency_is_added_without_blocking_other_requests() -> None:
    # Twenty requests queued behind each other take at least twenty delays, whatever the machine;
    # overlapped they take about one, so only a machine twenty times slowed could miss the bound.
    delay, requests = 0.4, 20
    with SandboxServer(SandboxConfig(latency_ms=delay * 1000)) as slow:
        with httpx.Client(base_url=slow.base_url) as http:
            started = time.monotonic()
            api(http, "/categories")
            assert time.monotonic() - started >= delay
        threads = [
            threading.Thread(target=lambda: httpx.get(f"{slow.base_url}{API}/categories"))
            for _ in range(requests)
        ]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert time.monotonic() - started < delay * requests  # the delays overlapped, not queued


# --- determinism ------------------------------------------------------------------------------


DETERMINISM_PATHS = (
    "/dr/stripe.com",
    f"/lookup/{DEMO_SITE}",
    "/lookup/determinism-probe.io",
    "/map/acme-widgets.com",
    f"/site-check/{DEMO_SITE}",
    f"/snippets/{DEMO_SITE}",
    "/keywords?keyword=coffee%20beans&domain=northwind-coffee.com",
    "/keywords/suggestions/hubspot.com",
    f"/sites/{DEMO_SITE}/keywords",
)


def _bodies(server: SandboxServer) -> list[str]:
    with httpx.Client(base_url=server.base_url) as http:
        return [api(http, path).text.replace(server.base_url, "{base}") for path in DETERMINISM_PATHS]


def test_two_sandboxes_give_identical_bodies(server: SandboxServer) -> None:
    with SandboxServer() as other:
        assert _bodies(server) == _bodies(other)


def test_different_inputs_give_different_numbers(http: httpx.Client) -> None:
    a, b = (first_domain(is_listed, f"differ-{n}-") for n in ("a", "b"))
    la, lb = (api(http, f"/lookup/{d}").json()["lookup"] for d in (a, b))
    assert (la["authority"], la["evidence"]) != (lb["authority"], lb["evidence"])
    ra, rb = (api(http, "/keywords", params={"keyword": k}).json()["report"] for k in ("crm", "hiking boots"))
    assert [r["domain"] for r in ra["results"]] != [r["domain"] for r in rb["results"]]


# --- faults, counting, controls ---------------------------------------------------------------


def test_fault_over_http_lasts_for_times_requests(http: httpx.Client) -> None:
    r = http.post("/_sandbox/faults", json={"operation": "lookup", "fault": 503, "times": 2})
    assert r.status_code == 201
    answers = [api(http, f"/lookup/{DEMO_SITE}") for _ in range(3)]
    assert [a.status_code for a in answers] == [503, 503, 200]
    assert set(answers[0].json()) == {"error"} and answers[0].headers["X-API-Tier"] == "pro"
    assert api(http, f"/map/{DEMO_SITE}").status_code == 200  # other operations untouched


def test_hostile_fault_puts_markdown_in_every_string_and_the_plan_name(http: httpx.Client) -> None:
    assert (
        http.post(
            "/_sandbox/faults", json={"operation": "lookup", "fault": "hostile", "times": 1}
        ).status_code
        == 201
    )
    hostile, plain = api(http, f"/lookup/{DEMO_SITE}"), api(http, f"/lookup/{DEMO_SITE}")
    assert hostile.status_code == 200 and HOSTILE_MARKDOWN in hostile.json()["lookup"]["domain"]
    assert hostile.headers["X-API-Tier"] == HOSTILE_TIER and "[Renew here](https://" in HOSTILE_TIER
    assert plain.json()["lookup"]["domain"] == DEMO_SITE and plain.headers["X-API-Tier"] == "pro"


def test_fault_for_one_key_and_clearing(http: httpx.Client) -> None:
    http.post("/_sandbox/faults", json={"operation": "*", "fault": "402-gate", "key": FREE_KEY})
    assert api(http, "/categories").status_code == 200
    gate = api(http, "/categories", key=FREE_KEY)
    assert gate.status_code == 402 and set(gate.json()) == GATE_FIELDS
    assert http.delete("/_sandbox/faults").json() == {"ok": True}
    assert api(http, "/categories", key=FREE_KEY).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"operation": "lookup", "fault": 418},
        {"operation": "nope", "fault": 503},
        {"fault": 503},
        {"operation": "dr", "fault": 503, "times": 0},
    ],
)
def test_invalid_fault_requests_are_400(http: httpx.Client, body: dict) -> None:
    r = http.post("/_sandbox/faults", json=body)
    assert r.status_code == 400 and r.json()["error"]


def test_checks_run_in_order_auth_then_rate_then_fault(http: httpx.Client, server: SandboxServer) -> None:
    server.state.add_fault("*", 500)
    assert api(http, "/categories", key="vdr_wrong").status_code == 401
    r = api(http, "/categories")
    assert r.status_code == 500 and set(r.json()) == {"error"}


def test_status_faults_have_realistic_bodies(http: httpx.Client, server: SandboxServer) -> None:
    server.state.add_fault("dr", 429, times=1, retry_after=7)
    r = api(http, "/dr/stripe.com")
    assert r.status_code == 429 and r.headers["Retry-After"] == "7" and set(r.json()) == {"error"}
    server.state.add_fault("dr", 402, times=1)
    assert set(api(http, "/dr/stripe.com").json()) == {"error"}
    for status in (400, 401, 404, 409, 500, 503):
        server.state.add_fault("categories", status, times=1)
        r = api(http, "/categories")
        assert r.status_code == status and set(r.json()) == {"error"} and r.json()["error"]


PARSERS: dict[str, tuple[type, str | None, Callable[[httpx.Client], httpx.Response]]] = {
    "dr": (DomainRating, "dr", lambda h: api(h, "/dr/stripe.com")),
    "site_check": (SiteCheck, "siteCheck", lambda h: api(h, f"/site-check/{DEMO_SITE}")),
    "lookup": (Lookup, "lookup", lambda h: api(h, f"/lookup/{DEMO_SITE}")),
    "trust_map": (TrustMap, "map", lambda h: api(h, f"/map/{DEMO_SITE}")),
    "snippets": (Snippets, None, lambda h: api(h, f"/snippets/{DEMO_SITE}")),
    "categories": (Categories, None, lambda h: api(h, "/categories")),
    "keyword_report": (KeywordReport, "report", lambda h: api(h, "/keywords", params={"keyword": "crm"})),
    "keyword_suggestions": (KeywordSuggestions, None, lambda h: api(h, f"/keywords/suggestions/{DEMO_SITE}")),
    "tracked_keywords": (TrackedKeywords, None, lambda h: api(h, f"/sites/{DEMO_SITE}/keywords")),
    "add_tracked_keyword": (
        TargetWrite,
        None,
        lambda h: h.post(_sites_path(DEMO_SITE), headers=auth(), json={"keyword": "fault probe"}),
    ),
    "refresh_tracked_keyword": (
        TargetWrite,
        None,
        lambda h: h.post(_sites_path(DEMO_SITE), headers=auth(), json={"action": "refresh", "id": "tgt_101"}),
    ),
    "remove_tracked_keyword": (
        TargetRemoval,
        None,
        lambda h: h.delete(_sites_path(DEMO_SITE), headers=auth(), params={"id": "tgt_101"}),
    ),
}


def test_every_operation_has_a_fault_probe() -> None:
    assert set(PARSERS) == set(OPERATIONS)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_badtypes_answers_fail_the_documented_shape(
    http: httpx.Client, server: SandboxServer, operation: str
) -> None:
    model, key, call = PARSERS[operation]
    server.state.add_fault(operation, "badtypes", times=1)
    r = call(http)
    assert r.status_code == 200
    body = r.json()
    with pytest.raises(ValidationError):
        model.model_validate(body[key] if key else {k: v for k, v in body.items() if k != "ok"})
    assert call(http).status_code in (200, 201)  # times=1: the next one is real again


@pytest.mark.parametrize(
    "operation", ["lookup", "trust_map", "site_check", "keyword_report", "tracked_keywords"]
)
def test_nulls_answers_keep_required_fields_and_null_the_rest(
    http: httpx.Client, server: SandboxServer, operation: str
) -> None:
    model, key, call = PARSERS[operation]
    server.state.add_fault(operation, "nulls", times=1)
    body = call(http).json()
    resource = body[key] if key else body
    parsed = model.model_validate(resource)
    nullable = [
        name for name, f in model.model_fields.items() if not f.is_required() and "None" in str(f.annotation)
    ]
    assert nullable and all(getattr(parsed, name) is None for name in nullable)
    required = [name for name, f in model.model_fields.items() if f.is_required()]
    assert all(getattr(parsed, name) is not None for name in required)


def test_nonjson_answers_are_html(http: httpx.Client, server: SandboxServer) -> None:
    server.state.add_fault("categories", "nonjson", times=1)
    r = api(http, "/categories")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    with pytest.raises(json.JSONDecodeError):
        json.loads(r.text)


def test_timeout_fault_holds_one_answer_without_blocking_others(server: SandboxServer) -> None:
    server.state.add_fault("lookup", "timeout", times=1)
    outcome: queue.Queue[BaseException | int] = queue.Queue()

    def slow_call() -> None:
        try:
            outcome.put(
                httpx.get(
                    f"{server.base_url}{API}/lookup/{DEMO_SITE}", headers=auth(), timeout=3.0
                ).status_code
            )
        except httpx.TimeoutException as exc:
            outcome.put(exc)

    thread = threading.Thread(target=slow_call)
    thread.start()
    assert until(lambda: server.state.total_requests() >= 1)  # the held request has arrived
    assert httpx.get(f"{server.base_url}{API}/categories", headers=auth()).status_code == 200
    assert outcome.empty()  # answered while the other was still held (its client gives up after 3 s)
    thread.join(timeout=30)
    assert isinstance(outcome.get_nowait(), httpx.TimeoutException)


def test_requests_are_counted_including_rejected_ones(http: httpx.Client, server: SandboxServer) -> None:
    api(http, f"/dr/{DEMO_SITE}")
    api(http, f"/dr/{DEMO_SITE}")
    api(http, f"/dr/{DEMO_SITE}", key="vdr_wrong")
    api(http, "/lookup/example.com", params={"x": "1"})
    api(http, "/no-such-route")
    http.get("/_sandbox/health")
    http.get(f"/badge/{DEMO_SITE.replace('.', '-')}.svg")
    state = server.state
    assert state.count("GET", f"{API}/dr/{DEMO_SITE}") == 3
    assert state.request_counts[("GET", f"{API}/lookup/example.com", "x=1")] == 1
    assert state.total_requests() == 5  # controls and public pages are not API requests
    fingerprints = [entry[3] for entry in state.request_log]
    assert fingerprints[:3] == [
        hashlib.sha256(k.encode()).hexdigest()[:8] for k in (DEMO_KEY, DEMO_KEY, "vdr_wrong")
    ]
    assert not any(DEMO_KEY in str(entry) or "vdr_wrong" in str(entry) for entry in state.request_log)
    stats = http.get("/_sandbox/stats").json()
    assert stats["total"] == 5
    assert {"method": "GET", "path": f"{API}/dr/{DEMO_SITE}", "query": "", "count": 3} in stats["requests"]
    http.post("/_sandbox/reset")
    assert http.get("/_sandbox/stats").json()["total"] == 0


def test_health(http: httpx.Client) -> None:
    assert http.get("/_sandbox/health").json() == {"ok": True}


# --- server lifecycle and CLI -------------------------------------------------------------------


def test_server_binds_loopback_and_stops() -> None:
    with SandboxServer() as running:
        assert running.base_url.startswith("http://127.0.0.1:")
        assert httpx.get(f"{running.base_url}/_sandbox/health").status_code == 200
        url = running.base_url
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/_sandbox/health", timeout=1.0)


def test_cli_prints_one_ready_line_and_serves_the_same_data(server: SandboxServer) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sandbox", "--port", "0", "--rate-limit", "50"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(
        target=lambda: lines.put(proc.stdout.readline() if proc.stdout else ""), daemon=True
    ).start()
    try:
        line = lines.get(timeout=10)
        match = re.fullmatch(
            r"Sandbox v1 API ready at (http://127\.0\.0\.1:\d+) \(keys: vdr_demo, vdr_free\)\n", line
        )
        assert match, line
        base = match.group(1)
        assert httpx.get(f"{base}/_sandbox/health", timeout=5).json() == {"ok": True}
        # Another process (another hash seed) serves the very same demo data.
        path = f"{API}/lookup/{DEMO_SITE}"
        theirs = httpx.get(base + path, headers=auth(), timeout=5).text.replace(base, "{base}")
        ours = httpx.get(server.base_url + path, headers=auth(), timeout=5).text.replace(
            server.base_url, "{base}"
        )
        assert theirs == ours
    finally:
        proc.terminate()
        try:
            out, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode == 0
    assert out == ""  # exactly one line was printed
