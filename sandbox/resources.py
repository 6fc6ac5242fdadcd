"""The v1 resources of the site-level operations, built as ``client.models`` objects.

Building the client's own models (and serialising them with ``to_json_dict``) means the sandbox
cannot send a field name the client would not read: the two sides share one definition of the wire.
These functions assume the domain is already normalised and the caller has checked it is listed
where the operation needs that.
"""

from __future__ import annotations

from datetime import date
from html import escape
from typing import Any, TypeVar
from urllib.parse import quote

from pydantic import BaseModel

from client.models import (
    Authority,
    Categories,
    Category,
    Changes,
    DomainRating,
    Evidence,
    Lookup,
    MapSite,
    PublicLinks,
    Snippets,
    TrustMap,
)
from client.settings import DEFAULT_API_BASE
from sandbox.clock import resolve
from sandbox.data import CATEGORIES, MAX_CATEGORIES_PER_SITE, dr_for, is_listed, site_profile, slug_of
from sandbox.links import referring_domains, top_and_bottom_backlinks

BADGE_STYLES: tuple[str, ...] = ("default", "dark", "truedr", "compact")
#: The real service's root, whose public pages and badges the snippets point at.
PUBLIC_ROOT = DEFAULT_API_BASE

M = TypeVar("M", bound=BaseModel)


def copied(model: type[M], source: object, names: str | None = None, **given: Any) -> M:
    """A ``model`` whose fields named in ``names`` (space-separated; None: every field not ``given``) are
    ``source``'s attributes of the same name (a site's profile, a site record), the rest ``given``."""
    taken = names.split() if names is not None else [name for name in model.model_fields if name not in given]
    return model(**{name: getattr(source, name) for name in taken}, **given)


def rating(domain: str, day: date | None = None) -> DomainRating:
    """GET /dr: works for any domain; listed sites are rated by VerifiedDR, others by the provider."""
    listed = is_listed(domain)
    return DomainRating(
        domain=domain,
        dr=dr_for(domain, day),
        source="verifieddr" if listed else "ahrefs",
        listed=listed,
        slug=slug_of(domain) if listed else None,
    )


def public_links(domain: str, base_url: str) -> PublicLinks:
    """The site's public page and badge, served by the sandbox itself so the links work offline."""
    slug = slug_of(domain)
    return PublicLinks(page=f"{base_url}/site/{slug}", badge=f"{base_url}/badge/{slug}.svg")


def lookup(domain: str, base_url: str, day: date | None = None) -> Lookup:
    """GET /lookup for a listed site on ``day`` (default: the sandbox's day)."""
    day = resolve(day)
    p = site_profile(domain, day)
    top, bottom = top_and_bottom_backlinks(domain, day=day)
    return Lookup(
        domain=domain,
        slug=slug_of(domain),
        title=p.title,
        authority=copied(Authority, p),
        changes=copied(Changes, p),
        evidence=copied(Evidence, p, top_backlinks=top, bottom_backlinks=bottom),
        verified=p.verified,
        links=public_links(domain, base_url),
        category=p.category,
    )


def trust_map(domain: str, day: date | None = None) -> TrustMap:
    """GET /map for a listed site whose cache is warm, on ``day`` (default: the sandbox's day).

    The total is the lookup's referring domains that day, never fewer than the sample shows."""
    day = resolve(day)
    p = site_profile(domain, day)
    rows = [row.model_copy() for row in referring_domains(domain, day)]
    return TrustMap(
        site=MapSite(domain=domain, dr=p.dr, verified=p.verified, title=p.title),
        total_domains=max(p.referring_domains, len(rows)),
        domains=rows,
    )


def snippets(domain: str) -> Snippets:
    """GET /snippets: ready-to-paste embeds whose image is the badge and whose link is the page.

    A snippet is pasted into someone's site, so its addresses take the public form the real service
    answers with (``https://verifieddr.com/badge/<slug>.svg``), never the sandbox's own address: a
    pasted demo snippet must not be a dead ``127.0.0.1`` link. The sandbox serves the same paths itself
    (``sandbox.pages``), so an app can still preview them offline from its own connection.
    """
    p = site_profile(domain)
    links = public_links(domain, PUBLIC_ROOT)
    page, badge = links.page or "", links.badge or ""
    alt = escape(f"DR {p.dr} — {domain} on VerifiedDR", quote=True)

    def html(src: str) -> str:
        return (
            f'<a href="{escape(page, quote=True)}" target="_blank" rel="noopener">'
            f'<img src="{escape(src, quote=True)}" alt="{alt}" width="160" height="40"></a>'
        )

    return Snippets(
        page=page,
        badge=badge,
        html=html(badge),
        markdown=f"[![DR {p.dr} — {domain} on VerifiedDR]({badge})]({page})",
        html_dark=html(f"{badge}?style=dark"),
        html_true_dr=html(f"{badge}?style=truedr"),
        share_text=f"{domain} has DR {p.dr} and TrueDR {p.true_dr} on VerifiedDR: {page}",
        styles=list(BADGE_STYLES),
        # The client's model has no field for the OG link (the spec does not name it), so it is
        # passed by its wire name and kept as an extra field.
        **{"ogImage": f"{PUBLIC_ROOT}/og/{quote(slug_of(domain))}.svg"},
    )


def categories() -> Categories:
    """GET /categories."""
    return Categories(
        categories=[Category(value=value, label=label) for value, label in CATEGORIES],
        max_per_site=MAX_CATEGORIES_PER_SITE,
    )
