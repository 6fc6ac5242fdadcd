"""The /api/v1 operations: each handler validates its input, applies the operation's own rules and
returns the resource; ``sandbox.guard`` does auth, rate limit, faults, quota and the wire format.

Inputs are validated with the client's own ``normalise_domain`` / ``normalise_keyword``, so the
sandbox refuses exactly what the client would refuse before sending.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import Route

from client.inputs import normalise_domain, normalise_keyword
from client.models import KeywordSuggestions, TargetRef, TargetRemoval, TargetWrite
from sandbox import resources
from sandbox.data import is_map_cold
from sandbox.endpoints import body_endpoint, endpoint, listed, now
from sandbox.growth_routes import growth_routes
from sandbox.guard import Answer, Call
from sandbox.keyword_data import keyword_report
from sandbox.owners import owned_path_site
from sandbox.problems import bad_request, not_found, program_gate, unavailable
from sandbox.site_checks import saved_report
from sandbox.suggestions import suggestions
from sandbox.tracked import tracked_listing

API_PREFIX = "/api/v1"
COLD_MAP_MESSAGE = (
    "The Trust Map for this site is being built. "
    "Open the site's Trust Map on VerifiedDR or wait for the next refresh."
)
_WRITE_BODY_HELP = (
    'Send {"keyword": "..."} to add a target or {"action": "refresh", "id": "..."} to re-check one.'
)


def _domain(call: Call) -> str:
    return normalise_domain(call.request.path_params["domain"])


def _listed_domain(call: Call) -> str:
    return listed(_domain(call))


# --- score data -----------------------------------------------------------------------------


async def _dr(call: Call) -> Answer:
    domain = _domain(call)
    call.spend_quota()  # after validation: a refused input spends nothing
    return Answer(resources.rating(domain), "dr")


async def _site_check(call: Call) -> Answer:
    domain = _domain(call)
    call.spend_quota()  # spent on a 404 too: the service looked for the report
    with call.state.growth() as growth:
        submitted = growth.sites.reports.get(domain)
    report = submitted or saved_report(domain)
    if report is None:
        raise not_found(
            f"No saved site-check report for {domain}. "
            "Create one by submitting the site with siteCheck: true (POST /sites)."
        )
    return Answer(report, "siteCheck")


async def _lookup(call: Call) -> Answer:
    return Answer(resources.lookup(_listed_domain(call), call.base_url), "lookup")


async def _trust_map(call: Call) -> Answer:
    domain = _listed_domain(call)
    if is_map_cold(domain):
        raise unavailable(COLD_MAP_MESSAGE)
    return Answer(resources.trust_map(domain), "map")


async def _snippets(call: Call) -> Answer:
    return Answer(resources.snippets(_listed_domain(call)))


async def _categories(call: Call) -> Answer:
    return Answer(resources.categories())


# --- keywords -------------------------------------------------------------------------------


async def _keyword_report(call: Call) -> Answer:
    if not call.account.growth_program:
        raise program_gate(call.base_url)
    params = call.request.query_params
    if "keyword" not in params:
        raise bad_request("The keyword query parameter is required.")
    keyword = normalise_keyword(params["keyword"])
    raw_domain = params.get("domain")
    user_domain = normalise_domain(raw_domain) if raw_domain else None
    cached = call.state.serp_fetch(keyword)
    return Answer(keyword_report(keyword, user_domain, cached=cached), "report")


async def _keyword_suggestions(call: Call) -> Answer:
    domain = _domain(call)
    return Answer(KeywordSuggestions(domain=domain, suggestions=suggestions(domain)))


async def _tracked_keywords(call: Call) -> Answer:
    site = owned_path_site(call)
    used = call.state.checks_used(call.account.key)
    return Answer(tracked_listing(site, call.state.tracked(site), used, call.account.monthly_checks))


async def _tracked_write(call: Call, body: Any) -> Answer:
    site = owned_path_site(call)
    if not isinstance(body, dict):
        raise bad_request(_WRITE_BODY_HELP)
    if "action" in body:
        target_id = body.get("id")
        if body["action"] != "refresh" or set(body) != {"action", "id"} or not isinstance(target_id, str):
            raise bad_request(_WRITE_BODY_HELP)
        target = call.state.refresh_tracked(call.account, site, target_id.strip(), now())
        return Answer(TargetWrite(target=TargetRef(id=target.id, keyword=target.keyword)))
    if set(body) != {"keyword"} or not isinstance(body["keyword"], str):
        raise bad_request(_WRITE_BODY_HELP)
    keyword = normalise_keyword(body["keyword"])
    target = call.state.add_tracked(call.account, site, keyword, now())
    return Answer(TargetWrite(target=TargetRef(id=target.id, keyword=target.keyword)), status=201)


async def _remove_tracked(call: Call) -> Answer:
    site = owned_path_site(call)
    target_id = (call.request.query_params.get("id") or "").strip()
    if not target_id:
        raise bad_request("The id query parameter is required (the id returned by the list).")
    return Answer(TargetRemoval(removed=call.state.remove_tracked(site, target_id)))


# --- routing --------------------------------------------------------------------------------


def _tracked_operation(body: Any) -> str:
    """POST carries two operations; the body says which, so faults can target each one."""
    refresh = isinstance(body, dict) and body.get("action") == "refresh"
    return "refresh_tracked_keyword" if refresh else "add_tracked_keyword"


_tracked_post = body_endpoint(_tracked_operation, _tracked_write)


def api_routes() -> list[Route]:
    """The v1 routes. ``:domain`` uses the path converter, so an encoded URL (with /) still arrives."""
    p = API_PREFIX
    return [
        Route(f"{p}/dr/{{domain:path}}", endpoint("dr", _dr, spends_quota=True)),
        Route(f"{p}/site-check/{{domain:path}}", endpoint("site_check", _site_check, spends_quota=True)),
        Route(f"{p}/lookup/{{domain:path}}", endpoint("lookup", _lookup)),
        Route(f"{p}/map/{{domain:path}}", endpoint("trust_map", _trust_map)),
        Route(f"{p}/snippets/{{domain:path}}", endpoint("snippets", _snippets)),
        Route(f"{p}/categories", endpoint("categories", _categories)),
        Route(f"{p}/keywords", endpoint("keyword_report", _keyword_report)),
        Route(
            f"{p}/keywords/suggestions/{{domain:path}}",
            endpoint("keyword_suggestions", _keyword_suggestions),
        ),
        *growth_routes(p),
        Route(f"{p}/sites/{{slug}}/keywords", endpoint("tracked_keywords", _tracked_keywords)),
        Route(f"{p}/sites/{{slug}}/keywords", _tracked_post, methods=["POST"]),
        Route(
            f"{p}/sites/{{slug}}/keywords",
            endpoint("remove_tracked_keyword", _remove_tracked),
            methods=["DELETE"],
        ),
    ]
