"""Your sites: the category list, submit, list, detail, TrueDR breakdown, export, monitor and verify.

Sites are addressed by slug (``example-com``) or by domain. ``categories()`` is here because a
submission is checked against its latest answer (unknown values, more than ``maxPerSite``) before it
is sent. Writes are sent once, never retried automatically.
"""

from __future__ import annotations

from typing import Any

from client import errors
from client.growth_inputs import NewSite, normalise_url
from client.growth_models import (
    Monitor,
    SiteDetail,
    SiteExport,
    SiteList,
    SubmittedSite,
    TrueDrReport,
    Verification,
)
from client.inputs import normalise_domain
from client.models import Categories
from client.operations.paths import domain_path, site_path
from client.transport import BaseClient


class SiteOperations(BaseClient):
    """``categories:list`` and the ``sites:*`` commands about the sites themselves."""

    #: The latest /categories answer, so a submission can be checked against maxPerSite before sending.
    _categories: Categories | None = None

    def categories(self) -> Categories:
        """``categories:list`` — values accepted by site submission and discovery filters."""
        categories = self._read(Categories, "categories", "/categories")
        self._categories = categories
        return categories

    def sites(self) -> SiteList:
        """``sites:list`` — the key's sites with their metrics."""
        return self._read(SiteList, "sites", "/sites")

    def submit_site(self, site: NewSite | str, /, **fields: Any) -> SubmittedSite:
        """``sites:submit`` — submit a site (``site_check=True`` also creates its site-check report).

        Pass a ``NewSite`` or the URL and its fields as keywords. Categories are checked against the
        latest ``categories()`` answer when this client has one. Sent once; never retried.
        """
        new = site if isinstance(site, NewSite) else NewSite(site, **fields)
        self._check_categories(new.categories)
        return self._write(SubmittedSite, "submit_site", "POST", "/sites", json=new.to_json())

    def site(self, slug: str) -> SiteDetail:
        """``sites:get`` — one of your sites with its DR, TrueDR and traffic trends."""
        return self._read(SiteDetail, "site", site_path(slug), key="site")

    def site_truedr(self, slug: str) -> TrueDrReport:
        """``sites:truedr`` — TrueDR with its per-signal breakdown (only for your own sites)."""
        path = site_path(slug, "truedr")
        return self._read(TrueDrReport, "site_truedr", path, key="truedr", params={"detailed": "true"})

    def export(self, domain: str) -> SiteExport:
        """``sites:export`` — one of your sites' record, authority and snippets."""
        return self._read(SiteExport, "export", domain_path("export", domain), key="export")

    def monitor(self, domain: str | None = None, daily: bool = False) -> Monitor:
        """``sites:monitor`` — changes and alerts for all your sites, or one; weekly or daily."""
        params: dict[str, str] = {}
        if daily:
            params["daily"] = "true"
        if domain:
            params["domain"] = normalise_domain(domain)
        return self._read(Monitor, "monitor", "/monitor", key="monitor", params=params)

    def verify(self, url: str) -> Verification:
        """``sites:verify`` — re-check the badge embed at a page of your site. Sent once."""
        body = {"url": normalise_url(url)}
        return self._write(Verification, "verify", "POST", "/verify", key="verification", json=body)

    def _check_categories(self, chosen: tuple[str, ...]) -> None:
        """Refuse what the last /categories answer rules out (unknown value, more than maxPerSite)."""
        known = self._categories
        if known is None or not chosen:
            return
        if known.max_per_site is not None and len(chosen) > known.max_per_site:
            raise errors.InvalidInputError(
                f"Choose at most {known.max_per_site} categories.", field="categories"
            )
        values = {c.value for c in known.categories}
        unknown = [c for c in chosen if values and c not in values]
        if unknown:
            raise errors.InvalidInputError(
                f"Unknown category: {', '.join(unknown)}. Choose from the categories list.",
                field="categories",
            )
