"""Where the History page's rows come from: a small source object, so the page never names the store.

``StoreSource`` reads the current account's rows from a ``HistoryStore``; ``CachedSource`` keeps its
recent answers for a minute (history changes once a day; a rerun of the page should not read two years
of rows again), dropped at once when this process writes; ``FrameSource`` serves the same columns from
DataFrames held in memory (what the benchmark compares the store with, and what a test can feed the
page). Pure: no Streamlit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pandas as pd

from analysis.figures.history_frames import best_positions, empty
from components.common.bounded_cache import BoundedCache
from schema.history import DOMAIN_COLUMNS, KEYWORD_COLUMNS, LINK_COLUMNS, SERP_COLUMNS, TRUST_TOTAL_COLUMNS
from store.notes import NOTE_COLUMNS

if TYPE_CHECKING:
    from store import HistoryStore

T = TypeVar("T")


def now() -> float:
    """The query cache's clock (monotonic seconds): one name, so a test can move time past a TTL
    instead of waiting for it."""
    return time.monotonic()


#: One watched subject: (kind, subject, origin, site).
WatchTuple = tuple[str, str, str, str]


class HistorySource(Protocol):
    """The rows one account's History page reads (columns as in ``analysis.figures.history_frames``)."""

    def domain_history(self, domains: Sequence[str], since: date | None) -> pd.DataFrame: ...

    def trust_map_days(self, domain: str) -> list[date]: ...

    def trust_map_links(self, domain: str, day: date) -> pd.DataFrame: ...

    def trust_map_totals(self, domain: str, since: date | None) -> pd.DataFrame: ...

    def keyword_history(self, site: str | None, since: date | None) -> pd.DataFrame: ...

    def keyword_best(self, site: str) -> pd.DataFrame:
        """Each keyword's best position in all the history kept for ``site`` and the first day it was
        reached (``KEYWORD_BEST_COLUMNS``), whatever period the page shows."""
        ...

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        """The watched keywords' top 10s by day (``SERP_COLUMNS``): of the keywords watched for ``site``,
        or of all of them when None."""
        ...

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        """Each tagged keyword's tags (the market view's groups)."""
        ...

    def notes(self, since: date | None) -> pd.DataFrame:
        """Editors' notes whose days reach ``since`` or later (``store.notes.NOTE_COLUMNS``)."""
        ...

    def brand_terms(self) -> dict[str, tuple[str, ...]]:
        """The brand terms editors set, per own site (a site without any uses its name)."""
        ...

    def watch_items(self) -> list[WatchTuple]:
        """The watchlist as (kind, subject, origin, site), the account's own sites first; ``site`` is the
        domain a watched keyword is measured for ("" for a domain, or a keyword whose site is unknown)."""
        ...


@dataclass(frozen=True)
class StoreSource:
    """The store's rows for one account (its key's fingerprint)."""

    store: HistoryStore
    account: str

    def domain_history(self, domains: Sequence[str], since: date | None) -> pd.DataFrame:
        return self.store.domain_history(self.account, list(domains), since)

    def trust_map_days(self, domain: str) -> list[date]:
        return self.store.trust_map_days(self.account, domain)

    def trust_map_links(self, domain: str, day: date) -> pd.DataFrame:
        return self.store.trust_map_links(self.account, domain, day)

    def trust_map_totals(self, domain: str, since: date | None) -> pd.DataFrame:
        return self.store.trust_map_totals(self.account, domain, since)

    def keyword_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        return self.store.keyword_history(self.account, site, since)

    def keyword_best(self, site: str) -> pd.DataFrame:
        return self.store.keyword_best(self.account, site)

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        return self.store.serp_history(self.account, site, since)

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        return self.store.keyword_tags(self.account)

    def notes(self, since: date | None) -> pd.DataFrame:
        return self.store.notes(self.account, since)

    def brand_terms(self) -> dict[str, tuple[str, ...]]:
        return self.store.brand_terms(self.account)

    def watch_items(self) -> list[WatchTuple]:
        return [(i.kind, i.subject, i.origin, i.site) for i in self.store.watchlist(self.account)]


class QueryCache:
    """Recent answers of one database's reads, shared by every session of the process.

    A key starts with the account it belongs to. An answer is used for ``ttl_s`` at most (rows the
    daily job or another replica writes show within that time) and never after ``changed(account)``
    (a write from this process for that account: a Watch, a recorded read). Answers are shared, not
    copied: callers must not change a frame they get.
    """

    def __init__(self, ttl_s: float = 60.0, max_entries: int = 64) -> None:
        self.ttl_s = ttl_s
        #: account → its generation, one more at each ``changed``; guarded by ``_entries.lock``.
        self._versions: dict[Any, int] = {}
        #: key → (expiry in ``now()`` seconds, the account's generation when read, the answer).
        self._entries: BoundedCache[tuple[Any, ...], tuple[float, int, Any]] = BoundedCache(max_entries)

    @property
    def max_entries(self) -> int:
        return self._entries.max_entries

    def changed(self, account: str | None = None) -> None:
        """Forget the answers of ``account`` (of every account when None)."""
        with self._entries.lock:
            self._entries.pop_where(lambda key: account is None or key[0] == account)
            for name in [account] if account is not None else list(self._versions):
                self._versions[name] = self._versions.get(name, 0) + 1

    def get(self, key: tuple[Any, ...], read: Callable[[], T]) -> T:
        started = now()
        with self._entries.lock:
            version = self._versions.get(key[0], 0)
            hit = self._entries.get(key, lambda entry: entry[0] > started and entry[1] == version)
            if hit is not None:
                return hit[2]
        value = read()
        with self._entries.lock:
            if self._versions.get(key[0], 0) == version:  # not written meanwhile: still current
                self._entries.put(key, (started + self.ttl_s, version, value))
        return value


@dataclass(frozen=True)
class CachedSource:
    """A source whose answers are kept in a ``QueryCache`` under the account they belong to."""

    inner: StoreSource
    cache: QueryCache

    def _get(self, name: str, *args: Any) -> Any:
        key = (self.inner.account, name, *(tuple(a) if isinstance(a, list) else a for a in args))
        return self.cache.get(key, lambda: getattr(self.inner, name)(*args))

    def domain_history(self, domains: Sequence[str], since: date | None) -> pd.DataFrame:
        return self._get("domain_history", tuple(domains), since)

    def trust_map_days(self, domain: str) -> list[date]:
        return self._get("trust_map_days", domain)

    def trust_map_links(self, domain: str, day: date) -> pd.DataFrame:
        return self._get("trust_map_links", domain, day)

    def trust_map_totals(self, domain: str, since: date | None) -> pd.DataFrame:
        return self._get("trust_map_totals", domain, since)

    def keyword_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        return self._get("keyword_history", site, since)

    def keyword_best(self, site: str) -> pd.DataFrame:
        return self._get("keyword_best", site)

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        return self._get("serp_history", site, since)

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        return self._get("keyword_tags")

    def notes(self, since: date | None) -> pd.DataFrame:
        return self._get("notes", since)

    def brand_terms(self) -> dict[str, tuple[str, ...]]:
        return self._get("brand_terms")

    def watch_items(self) -> list[WatchTuple]:
        return self._get("watch_items")


def _day_values(frame: pd.DataFrame) -> pd.Series:
    return pd.to_datetime(frame["day"]).dt.date


@dataclass
class FrameSource:
    """The same reads answered from frames in memory (one account's rows, any order)."""

    domains: pd.DataFrame = field(default_factory=lambda: empty(DOMAIN_COLUMNS))
    keywords: pd.DataFrame = field(default_factory=lambda: empty(KEYWORD_COLUMNS))
    #: (domain, day) → that day's Trust Map sample.
    links: dict[tuple[str, date], pd.DataFrame] = field(default_factory=dict)
    #: domain → its Trust Map totals by day.
    totals: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: The watchlist as (kind, subject, origin, site).
    watch: list[WatchTuple] = field(default_factory=list)
    #: The watched keywords' top 10s (``SERP_COLUMNS``).
    serps: pd.DataFrame = field(default_factory=lambda: empty(SERP_COLUMNS))
    #: keyword → its tags; own site → its brand terms.
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    brands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Editors' notes (``store.notes.NOTE_COLUMNS``).
    chart_notes: pd.DataFrame = field(default_factory=lambda: empty(NOTE_COLUMNS))

    def __post_init__(self) -> None:
        self._domain_days = _day_values(self.domains) if not self.domains.empty else None
        self._keyword_days = _day_values(self.keywords) if not self.keywords.empty else None

    def domain_history(self, domains: Sequence[str], since: date | None) -> pd.DataFrame:
        if self._domain_days is None:
            return empty(DOMAIN_COLUMNS)
        keep = self.domains["domain"].isin(list(domains))
        if since is not None:
            keep &= self._domain_days >= since
        rows = self.domains[keep].assign(day=self._domain_days[keep])
        return rows.sort_values(["day", "domain"], kind="stable").reset_index(drop=True)

    def trust_map_days(self, domain: str) -> list[date]:
        return sorted(day for (name, day) in self.links if name == domain)

    def trust_map_links(self, domain: str, day: date) -> pd.DataFrame:
        found = self.links.get((domain, day))
        return empty(LINK_COLUMNS) if found is None else found.copy()

    def trust_map_totals(self, domain: str, since: date | None) -> pd.DataFrame:
        found = self.totals.get(domain)
        if found is None:
            return empty(TRUST_TOTAL_COLUMNS)
        days = _day_values(found)
        return found[days >= since] if since is not None else found.copy()

    def keyword_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        if self._keyword_days is None:
            return empty(KEYWORD_COLUMNS)
        keep = pd.Series(True, index=self.keywords.index)
        if site is not None:
            keep &= self.keywords["site"] == site
        if since is not None:
            keep &= self._keyword_days >= since
        rows = self.keywords[keep].assign(day=self._keyword_days[keep])
        return rows.sort_values(["day", "keyword"], kind="stable").reset_index(drop=True)

    def keyword_best(self, site: str) -> pd.DataFrame:
        return best_positions(self.keyword_history(site, None))

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        if self.serps.empty:
            return empty(SERP_COLUMNS)
        keep = pd.Series(True, index=self.serps.index)
        if site is not None:
            keep &= self.serps["site"] == site
        if since is not None:
            keep &= _day_values(self.serps) >= since
        return self.serps[keep].reset_index(drop=True)

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        return dict(self.tags)

    def notes(self, since: date | None) -> pd.DataFrame:
        return self.chart_notes.copy()

    def brand_terms(self) -> dict[str, tuple[str, ...]]:
        return dict(self.brands)

    def watch_items(self) -> list[WatchTuple]:
        return sorted(self.watch, key=lambda item: (item[2] != "own", item[1], item[0], item[3]))
