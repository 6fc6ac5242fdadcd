"""Who owns which site, and what a plan allows: the owner scope and the gates of site management.

A key owns its seeded sites (``sandbox.accounts``) plus the ones it submitted while the sandbox runs.
Every owner-scoped operation answers 404 for any other site, as the spec says, whether the site
exists, belongs to someone else or was never heard of.
"""

from __future__ import annotations

from client.errors import InvalidInputError
from client.inputs import normalise_domain
from sandbox.data import slug_of
from sandbox.guard import Call
from sandbox.problems import ApiProblem, not_found

#: The plan a gated growth feature asks for (the same name the keyword gate uses).
GROWTH_PLAN = "growth"


def owned_domains(call: Call) -> tuple[str, ...]:
    """The key's sites: seeded first, then submitted ones in submission order."""
    with call.state.growth() as growth:
        submitted = growth.sites.domains_of(call.account.key)
    return (*call.account.sites, *submitted)


def owned_site(call: Call, raw: str) -> str:
    """The owned site named by a slug (``example-com``) or a domain (``example.com``), else 404."""
    owned = owned_domains(call)
    text = (raw or "").strip().lower()
    try:
        site = normalise_domain(text) if "." in text else next((s for s in owned if slug_of(s) == text), text)
    except InvalidInputError:
        site = text
    if site not in owned:
        raise not_found(f"No site '{raw}' among the sites of this API key.")
    return site


def owned_path_site(call: Call, param: str = "slug") -> str:
    """The owned site a path parameter names (``:slug`` unless told otherwise), else 404."""
    return owned_site(call, call.request.path_params[param])


def feature_gate(call: Call, feature: str, message: str) -> None:
    """402 with the gate body when the key's plan has no growth program."""
    if not call.account.growth_program:
        raise ApiProblem(
            402,
            message,
            upgrade_url=f"{call.base_url}/pricing",
            required_plan=GROWTH_PLAN,
            blocked_feature=feature,
        )
