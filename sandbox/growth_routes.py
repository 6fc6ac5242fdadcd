"""The /api/v1 operations of discovery, exchanges and site management.

Each handler validates its input (with the client's own checks, so both sides refuse the same
things), applies the owner scope and the plan's gates, and reads or changes ``SandboxState.growth()``;
``sandbox.guard`` does auth, rate limit, faults, quota and the wire format as for every operation.
Shapes follow the contract notes; statuses follow the spec (400 input, 402 plan, 404 not yours, 409
already done or cooling down, 503 unavailable).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from client.growth_inputs import normalise_location, normalise_prompt
from client.growth_models import Monitor, SiteList, SubmittedSite
from client.inputs import normalise_domain
from sandbox import discovery, gsc, monitor, sites
from sandbox.accounts import OWNED_SITES
from sandbox.endpoints import body_endpoint, endpoint, listed, now, with_body
from sandbox.guard import Answer, Call, handle
from sandbox.owners import feature_gate, owned_domains, owned_path_site, owned_site
from sandbox.problems import bad_request, not_found

# --- discovery and exchanges ------------------------------------------------------------------


def _exchanges_for(call: Call) -> str | None:
    params = call.request.query_params
    raw = params.get("exchangesFor") or params.get("opportunitiesFor")
    return raw if raw else None


async def _find(call: Call) -> Answer:
    filters = discovery.filters_from_query(call.request.query_params, discovery.DEFAULT_FIND_LIMIT)
    return Answer(discovery.find(filters, call.base_url), "find")


async def _exchange_candidates(call: Call) -> Answer:
    raw = _exchanges_for(call)
    assert raw is not None
    domain = listed(normalise_domain(raw))
    filters = discovery.filters_from_query(call.request.query_params, discovery.DEFAULT_CANDIDATE_LIMIT)
    found = discovery.exchange_candidates(domain, filters, owned_domains(call), call.base_url)
    return Answer(found, "opportunities")


async def _contact(call: Call, body: Any) -> Answer:
    feature_gate(call, "exchange_outreach", "Exchange proposals need a running growth program.")
    proposal = discovery.parse_proposal(body)
    owned = owned_domains(call)
    if proposal.exchanges_for not in owned:
        raise not_found(f"{proposal.exchanges_for} is not one of the sites of this API key.")
    target = discovery.resolve_target(proposal, owned)
    with call.state.growth() as growth:
        answer = discovery.contact(
            growth.outreach, call.account.key, call.account.tier, proposal, target, now()
        )
    return Answer(answer, "contact")


# --- my sites -----------------------------------------------------------------------------------


async def _sites(call: Call) -> Answer:
    domains = owned_domains(call)
    with call.state.growth() as growth:
        records = [sites.record(d, growth.sites) for d in domains]
    limit = sites.SITE_LIMITS.get(call.account.tier)
    return Answer(SiteList(sites=records, site_limit=limit))


async def _submit(call: Call, body: Any) -> Answer:
    site = sites.parse_submission(body)
    owned = owned_domains(call)
    if not call.account.growth_program and len(owned) >= sites.SITE_LIMITS["free"]:
        feature_gate(call, "additional_sites", "The free plan includes one site. Upgrade to add more.")
    with call.state.growth() as growth:
        taken = growth.taken(site.domain) or site.domain in OWNED_SITES
        submission = sites.submit(growth.sites, call.account, owned, site, taken, now())
        answer = SubmittedSite(
            site=sites.record(submission.domain, growth.sites),
            site_check=growth.sites.reports.get(submission.domain),
        )
    return Answer(answer, status=201)


async def _site(call: Call) -> Answer:
    site = owned_path_site(call)
    with call.state.growth() as growth:
        return Answer(sites.detail(site, growth.sites), "site")


async def _truedr(call: Call) -> Answer:
    site = owned_path_site(call)
    with call.state.growth() as growth:
        return Answer(sites.true_dr_report(site, growth.sites))


async def _export(call: Call) -> Answer:
    site = owned_path_site(call, "domain")
    with call.state.growth() as growth:
        return Answer(sites.export(site, growth.sites), "export")


async def _monitor(call: Call) -> Answer:
    params = call.request.query_params
    daily = params.get("daily", "").strip().lower() in ("true", "1", "yes")
    raw = params.get("domain")
    chosen = (owned_site(call, normalise_domain(raw)),) if raw else owned_domains(call)
    with call.state.growth() as growth:
        watched = [monitor.monitored(d, growth.sites, daily) for d in chosen]
    cadence = "daily" if daily else "weekly"
    return Answer(Monitor(cadence=cadence, generated_at=now(), sites=watched), "monitor")


async def _verify(call: Call, body: Any) -> Answer:
    url, domain = sites.parse_verify(body)
    site = owned_site(call, domain)
    with call.state.growth() as growth:
        return Answer(sites.verify(growth.sites, url, site, now()), "verification")


# --- AI visibility ------------------------------------------------------------------------------

_VISIBILITY_HELP = (
    'Send {"prompt": "..."} to track a question, {"action": "reset"} to reseed them from your '
    'keywords or {"action": "run"} to ask them now.'
)


def _visibility_gate(call: Call) -> None:
    feature_gate(call, "ai_visibility", "Changing or running AI-visibility questions needs a paid plan.")


async def _ai_visibility(call: Call) -> Answer:
    site = owned_path_site(call)
    with call.state.growth() as growth:
        return Answer(growth.visibility.view(site))


async def _visibility_write(call: Call, body: Any) -> Answer:
    site = owned_path_site(call)
    _visibility_gate(call)
    if not isinstance(body, dict):
        raise bad_request(_VISIBILITY_HELP)
    action = body.get("action")
    if action == "reset" and set(body) == {"action"}:
        keywords = [k.keyword for k in call.state.tracked(site)]
        with call.state.growth() as growth:
            return Answer(growth.visibility.reset(site, keywords))
    if action == "run" and set(body) == {"action"}:
        with call.state.growth() as growth:
            return Answer(growth.visibility.run(site, now()))
    if action is None and isinstance(body.get("prompt"), str) and set(body) <= {"prompt", "location"}:
        text = normalise_prompt(body["prompt"])
        location = body.get("location")
        where = normalise_location(location) if isinstance(location, str) else None
        with call.state.growth() as growth:
            return Answer(growth.visibility.add(site, text, where), status=201)
    raise bad_request(_VISIBILITY_HELP)


async def _remove_prompt(call: Call) -> Answer:
    site = owned_path_site(call)
    _visibility_gate(call)
    prompt_id = (call.request.query_params.get("promptId") or "").strip()
    if not prompt_id:
        raise bad_request("The promptId query parameter is required (the id returned by the list).")
    with call.state.growth() as growth:
        return Answer(growth.visibility.remove(site, prompt_id))


# --- Search Console -----------------------------------------------------------------------------


def _gsc_site(call: Call, feature: str) -> str:
    site = owned_path_site(call)
    feature_gate(call, feature, "Search Console reports need a running growth program.")
    gsc.require_connected(site)
    return site


async def _gsc_performance(call: Call) -> Answer:
    site = _gsc_site(call, "search_console_performance")
    range_ = gsc.check_range(call.request.query_params.get("range"))
    return Answer(gsc.performance(site, range_))


async def _gsc_audit(call: Call) -> Answer:
    site = _gsc_site(call, "search_console_audit")
    with call.state.growth() as growth:
        return Answer(growth.audits.result(site))


async def _run_gsc_audit(call: Call) -> Answer:
    site = _gsc_site(call, "search_console_audit")
    with call.state.growth() as growth:
        return Answer(growth.audits.run(site, now()))


# --- routing ------------------------------------------------------------------------------------


async def _find_get(request: Request) -> Response:
    """GET /find is two operations: discovery, or exchange candidates when exchangesFor is given."""
    params = request.query_params
    exchanges = bool(params.get("exchangesFor") or params.get("opportunitiesFor"))
    if exchanges:
        return await handle(request, "exchange_candidates", _exchange_candidates)
    return await handle(request, "find", _find)


def _find_operation(body: Any) -> str:
    """POST /find previews a proposal (dryRun: true) or sends it; faults can target each one."""
    dry_run = isinstance(body, dict) and body.get("dryRun") is True
    return "preview_exchange" if dry_run else "approve_exchange"


def _visibility_operation(body: Any) -> str:
    """POST /ai-visibility resets, runs or adds a question, as its body's action says."""
    action = body.get("action") if isinstance(body, dict) else None
    return {"reset": "reset_ai_prompts", "run": "run_ai_visibility"}.get(str(action), "add_ai_prompt")


_find_post = body_endpoint(_find_operation, _contact)
_visibility_post = body_endpoint(_visibility_operation, _visibility_write)


def growth_routes(prefix: str) -> list[Route]:
    """The routes, placed before ``/sites/{slug}/keywords`` so none shadows another."""
    p = prefix
    return [
        Route(f"{p}/find", _find_get, methods=["GET"]),
        Route(f"{p}/find", _find_post, methods=["POST"]),
        Route(f"{p}/sites", endpoint("sites", _sites), methods=["GET"]),
        Route(f"{p}/sites", with_body("submit_site", _submit), methods=["POST"]),
        Route(f"{p}/sites/{{slug}}", endpoint("site", _site), methods=["GET"]),
        Route(f"{p}/sites/{{slug}}/truedr", endpoint("site_truedr", _truedr), methods=["GET"]),
        Route(
            f"{p}/sites/{{slug}}/ai-visibility", endpoint("ai_visibility", _ai_visibility), methods=["GET"]
        ),
        Route(f"{p}/sites/{{slug}}/ai-visibility", _visibility_post, methods=["POST"]),
        Route(
            f"{p}/sites/{{slug}}/ai-visibility",
            endpoint("remove_ai_prompt", _remove_prompt),
            methods=["DELETE"],
        ),
        Route(
            f"{p}/sites/{{slug}}/gsc-performance",
            endpoint("gsc_performance", _gsc_performance),
            methods=["GET"],
        ),
        Route(f"{p}/sites/{{slug}}/gsc-audit", endpoint("gsc_audit", _gsc_audit), methods=["GET"]),
        Route(f"{p}/sites/{{slug}}/gsc-audit", endpoint("run_gsc_audit", _run_gsc_audit), methods=["POST"]),
        Route(f"{p}/export/{{domain:path}}", endpoint("export", _export), methods=["GET"]),
        Route(f"{p}/monitor", endpoint("monitor", _monitor), methods=["GET"]),
        Route(f"{p}/verify", with_body("verify", _verify), methods=["POST"]),
    ]
