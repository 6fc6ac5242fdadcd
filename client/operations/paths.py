"""Request paths built from checked input: each value is normalised, then sent as one encoded segment.

Normalising here (a no-op for a value that was normalised already) means a script that passes what a
person typed still asks for the registrable domain, and percent-encoding means no value can ever
reach another route.
"""

from __future__ import annotations

from urllib.parse import quote

from client.growth_inputs import normalise_slug
from client.inputs import normalise_domain


def path_segment(value: str) -> str:
    """``value`` as one percent-encoded path segment (``/`` included)."""
    return quote(value, safe="")


def domain_path(route: str, domain: str) -> str:
    """``/<route>/<registrable domain>``, e.g. ``/lookup/example.com``."""
    return f"/{route}/{path_segment(normalise_domain(domain))}"


def site_path(site: str, *tail: str) -> str:
    """``/sites/<slug>[/<tail>…]`` for a slug (``example-com``) or a domain of one of your sites."""
    return "/".join((f"/sites/{path_segment(normalise_slug(site))}", *tail))
