"""Keyword research, suggestions and the tracked keywords of your own sites.

Research and suggestions read live data for any domain; tracked keywords are stored per owned site
(by slug or domain) and only change through the three writes, each sent once and never retried.
"""

from __future__ import annotations

from client import errors
from client.inputs import normalise_domain, normalise_keyword
from client.models import KeywordReport, KeywordSuggestions, TargetRemoval, TargetWrite, TrackedKeywords
from client.operations.paths import domain_path, site_path
from client.transport import BaseClient


def _target_id(value: str) -> str:
    """A tracked keyword's id (``tgt_123``), refused before sending when it cannot be one."""
    text = (value or "").strip()
    if not text or len(text) > 128 or not all(ch.isalnum() or ch in "_-" for ch in text):
        raise errors.InvalidInputError("That is not a tracked-keyword id like tgt_123.", field="id")
    return text


class KeywordOperations(BaseClient):
    """``keywords:*`` commands: research, suggest, tracked (and its writes)."""

    def keyword_report(self, keyword: str, domain: str | None = None) -> KeywordReport:
        """``keywords:research`` — live US top 10 with each DR; with a domain, its gap and tier."""
        params = {"keyword": normalise_keyword(keyword)}
        if domain:
            params["domain"] = normalise_domain(domain)
        return self._read(KeywordReport, "keyword_report", "/keywords", key="report", params=params)

    def keyword_suggestions(self, domain: str) -> KeywordSuggestions:
        """``keywords:suggest`` — non-brand keywords the domain ranks 4 to 30 for."""
        path = domain_path("keywords/suggestions", domain)
        return self._read(KeywordSuggestions, "keyword_suggestions", path)

    def tracked_keywords(self, slug: str) -> TrackedKeywords:
        """``keywords:tracked`` — stored snapshots of an owned site; never triggers a SERP fetch."""
        return self._read(TrackedKeywords, "tracked_keywords", site_path(slug, "keywords"))

    def add_tracked_keyword(self, slug: str, keyword: str) -> TargetWrite:
        """Track a keyword for an owned site. Sent once; never retried automatically."""
        path = site_path(slug, "keywords")
        body = {"keyword": normalise_keyword(keyword)}
        return self._write(TargetWrite, "add_tracked_keyword", "POST", path, json=body)

    def refresh_tracked_keyword(self, slug: str, target_id: str) -> TargetWrite:
        """Re-snapshot one tracked keyword. Sent once; never retried automatically."""
        path = site_path(slug, "keywords")
        body = {"action": "refresh", "id": _target_id(target_id)}
        return self._write(TargetWrite, "refresh_tracked_keyword", "POST", path, json=body)

    def remove_tracked_keyword(self, slug: str, target_id: str) -> TargetRemoval:
        """Stop tracking one keyword. Sent once; never retried automatically."""
        path = site_path(slug, "keywords")
        params = {"id": _target_id(target_id)}
        return self._write(TargetRemoval, "remove_tracked_keyword", "DELETE", path, params=params)
