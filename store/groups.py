"""Keyword groups in the history database: editors' tags on keywords and each own site's brand terms.

A tag is a short label ("pricing", "blog") stored folded (lower case, single spaces); a keyword's tags
are set as a whole (``set_keyword_tags``), so the app's editor and ``watch import`` say what a keyword's
tags are, never half of it. Brand terms belong to one own site. Both are read per account.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import Table, delete, insert, select

from store.engine import Connected
from store.models import SHORT_LEN, SUBJECT_LEN, BrandTermRow, KeywordTagRow
from store.rows import subject_name
from store.watchlist import check_account

TAGS: Table = KeywordTagRow.__table__
BRAND_TERMS: Table = BrandTermRow.__table__


class BadLabel(ValueError):
    """A tag or brand term that cannot be kept; the message says why in plain words."""


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags as stored: folded, each once, in the order given; BadLabel for one that is not a short plain
    label (letters, digits, spaces, hyphens, underscores; up to 32 characters)."""
    cleaned: dict[str, None] = {}
    for tag in tags:
        name = subject_name(tag)
        if not name:
            continue
        if len(name) > SHORT_LEN or not all(ch.isalnum() or ch in " -_" for ch in name):
            raise BadLabel(f"a tag is a short label of letters, digits, spaces or hyphens, not {tag[:40]!r}")
        cleaned[name] = None
    return tuple(cleaned)


def clean_terms(terms: Iterable[str]) -> tuple[str, ...]:
    """Brand terms as stored: folded, each once; BadLabel for one longer than a keyword can be."""
    cleaned: dict[str, None] = {}
    for term in terms:
        name = subject_name(term)
        if len(name) > SUBJECT_LEN:
            raise BadLabel("a brand term is a word or a few, not a paragraph")
        if name:
            cleaned[name] = None
    return tuple(cleaned)


class KeywordGroups(Connected):
    """Keyword tags and brand terms (``HistoryStore.groups``)."""

    def keyword_tags(self, account: str) -> dict[str, tuple[str, ...]]:
        """Each tagged keyword's tags, in alphabetical order."""
        query = select(TAGS.c.keyword, TAGS.c.tag).where(TAGS.c.account == check_account(account))
        tags: dict[str, list[str]] = defaultdict(list)
        with self._reading() as conn:
            for keyword, tag in conn.execute(query.order_by(TAGS.c.keyword, TAGS.c.tag)):
                tags[keyword].append(tag)
        return {keyword: tuple(names) for keyword, names in tags.items()}

    def set_keyword_tags(self, account: str, keyword: str, tags: Iterable[str]) -> bool:
        """Make ``tags`` the keyword's tags (none: untagged); True when that changed anything."""
        name, wanted = subject_name(keyword), set(clean_tags(tags))
        where = (TAGS.c.account == check_account(account), TAGS.c.keyword == name)
        with self._writing() as conn:
            present = {row.tag for row in conn.execute(select(TAGS.c.tag).where(*where))}
            if present == wanted:
                return False
            if present - wanted:
                conn.execute(delete(TAGS).where(*where, TAGS.c.tag.in_(sorted(present - wanted))))
            now = datetime.now(UTC)
            rows = [
                {"account": account, "keyword": name, "tag": tag, "added_at": now} for tag in wanted - present
            ]
            if rows:
                conn.execute(insert(TAGS), rows)
        return True

    def brand_terms(self, account: str) -> dict[str, tuple[str, ...]]:
        """Each own site's brand terms as set by an editor (a site without any is absent)."""
        query = select(BRAND_TERMS.c.site, BRAND_TERMS.c.term).where(
            BRAND_TERMS.c.account == check_account(account)
        )
        terms: dict[str, list[str]] = defaultdict(list)
        with self._reading() as conn:
            for site, term in conn.execute(query.order_by(BRAND_TERMS.c.site, BRAND_TERMS.c.term)):
                terms[site].append(term)
        return {site: tuple(names) for site, names in terms.items()}

    def set_brand_terms(self, account: str, site: str, terms: Iterable[str]) -> bool:
        """Make ``terms`` the site's brand terms (none: its name is used); True when that changed anything."""
        name, wanted = subject_name(site), set(clean_terms(terms))
        where = (BRAND_TERMS.c.account == check_account(account), BRAND_TERMS.c.site == name)
        with self._writing() as conn:
            present = {row.term for row in conn.execute(select(BRAND_TERMS.c.term).where(*where))}
            if present == wanted:
                return False
            conn.execute(delete(BRAND_TERMS).where(*where))
            now = datetime.now(UTC)
            rows = [
                {"account": account, "site": name, "term": term, "added_at": now} for term in sorted(wanted)
            ]
            if rows:
                conn.execute(insert(BRAND_TERMS), rows)
        return True
