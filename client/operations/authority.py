"""Score data of any domain: DR, the saved site check, lookup, Trust Map and badge snippets.

Each method is named after the ``vdr`` CLI command it mirrors and takes a domain, subdomain or URL;
the registrable domain is what is asked for.
"""

from __future__ import annotations

from client.models import DomainRating, Lookup, SiteCheck, Snippets, TrustMap
from client.operations.paths import domain_path
from client.transport import BaseClient


class AuthorityOperations(BaseClient):
    """Reads about any domain (GET, retried when worth it)."""

    def dr(self, domain: str) -> DomainRating:
        """``authority:dr`` — Domain Rating for any domain. Spends one quota unit per call."""
        return self._read(DomainRating, "dr", domain_path("dr", domain), key="dr")

    def site_check(self, domain: str) -> SiteCheck:
        """The saved fraud verdict of a listed site. Spends one quota unit per call."""
        return self._read(SiteCheck, "site_check", domain_path("site-check", domain), key="siteCheck")

    def lookup(self, domain: str) -> Lookup:
        """``authority:lookup`` — TrueDR, trust, confidence, changes and evidence of a listed site."""
        return self._read(Lookup, "lookup", domain_path("lookup", domain), key="lookup")

    def trust_map(self, domain: str) -> TrustMap:
        """``authority:map`` — up to 60 cached referring domains (503 while the cache is cold)."""
        return self._read(TrustMap, "trust_map", domain_path("map", domain), key="map")

    def snippets(self, domain: str) -> Snippets:
        """``badge:snippets`` — public page, badge and ready-to-paste embed snippets."""
        return self._read(Snippets, "snippets", domain_path("snippets", domain), key="snippets")
