"""Where the History page's rows come from: a small source object, so the page never names the store.

``StoreSource`` reads the current account's rows from a ``HistoryStore``; ``CachedSource`` keeps its
recent answers for a minute (history changes once a day; a rerun of the page should not read two years
of rows again), dropped at once when this process writes. Pure: no Streamlit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import pandas as pd

from analysis.figures.history_frames import ranked_summary
from analysis.market import MarketFigures
from components.common.bounded_cache import BoundedCache
from services.market import group_keywords, market_as_shown, site_dr_spread, site_top10_drs

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

    def keyword_summary(self, site: str, since: date | None, until: date | None) -> pd.DataFrame:
        """One row per keyword recorded for ``site`` from ``since`` to ``until`` (each end open when
        None): ``history_frames.keyword_summary`` of those rows with the all-time best, in its order,
        computed where the rows are (the page never reads a period of every keyword)."""
        ...

    def keyword_days(
        self, site: str, keywords: tuple[str, ...], since: date | None, until: date | None
    ) -> pd.DataFrame:
        """``keyword_history``'s rows of ``keywords`` only, from ``since`` to ``until`` (the charts')."""
        ...

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        """The watched keywords' top 10s by day (``SERP_COLUMNS``): of the keywords watched for ``site``,
        or of all of them when None."""
        ...

    def serp_days(self, site: str | None, days: tuple[date, ...]) -> pd.DataFrame:
        """The same top 10s on ``days`` only (two days compared, not the whole period)."""
        ...

    def latest_top10s(self, site: str, keywords: tuple[str, ...], since: date) -> pd.DataFrame:
        """The top 10 of each of ``keywords`` watched for ``site`` on its latest day from ``since`` on
        (``SERP_COLUMNS``): what reaching a position is worth is measured on, not the whole period."""
        ...

    def dr_spread(self, site: str | None, since: date | None, group: str) -> pd.DataFrame:
        """The top-10 DR per day and keyword of ``group``'s keywords (``analysis.market.dr_spread``'s
        columns), computed where the rows are; UnknownGroup for a group there is not."""
        ...

    def top10_drs(
        self, site: str | None, excluding: str, keywords: tuple[str, ...]
    ) -> Mapping[str, pd.DataFrame]:
        """Per keyword among ``keywords`` watched for ``site`` (all when None), its top 10's median and
        lowest DR by day over the whole history, without ``excluding``'s own results (what
        ``analysis.opportunities.series.top10_dr_by_keyword`` gives), computed where the rows are."""
        ...

    def top10_keywords(self, site: str | None, since: date | None, group: str) -> list[str]:
        """The keywords of ``group`` watched for ``site`` (all when None) with a top 10 from ``since`` on,
        sorted; UnknownGroup for a group there is not."""
        ...

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        """Each tagged keyword's tags (the market view's groups)."""
        ...

    def market(
        self, site: str | None, since: date | None, group: str, ctr: tuple[float, ...]
    ) -> MarketFigures:
        """Visibility and share of voice of ``group``'s keywords watched for ``site`` (all when None)
        from ``since`` on, volume-weighted where the keyword history knows every volume of a day
        (``services.market.market_as_shown``); UnknownGroup for a group there is not."""
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
        return self.store.queries.domain_history(self.account, list(domains), since)

    def trust_map_days(self, domain: str) -> list[date]:
        return self.store.queries.trust_map_days(self.account, domain)

    def trust_map_links(self, domain: str, day: date) -> pd.DataFrame:
        return self.store.queries.trust_map_links(self.account, domain, day)

    def trust_map_totals(self, domain: str, since: date | None) -> pd.DataFrame:
        return self.store.queries.trust_map_totals(self.account, domain, since)

    def keyword_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        return self.store.queries.keyword_history(self.account, site, since)

    def keyword_best(self, site: str) -> pd.DataFrame:
        return self.store.keyword_months.best(self.account, site)

    def keyword_summary(self, site: str, since: date | None, until: date | None) -> pd.DataFrame:
        return ranked_summary(self.store.keyword_months.summary(self.account, site, since, until))

    def keyword_days(
        self, site: str, keywords: tuple[str, ...], since: date | None, until: date | None
    ) -> pd.DataFrame:
        return self.store.queries.keyword_days(self.account, site, keywords, since, until)

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        return self.store.queries.serp_history(self.account, site, since)

    def serp_days(self, site: str | None, days: tuple[date, ...]) -> pd.DataFrame:
        return self.store.queries.serp_days(self.account, site, days)

    def latest_top10s(self, site: str, keywords: tuple[str, ...], since: date) -> pd.DataFrame:
        return self.store.market.latest_top10s(self.account, site, keywords, since)

    def dr_spread(self, site: str | None, since: date | None, group: str) -> pd.DataFrame:
        return site_dr_spread(self.store, self.account, site, since=since, until=None, group=group)

    def top10_drs(
        self, site: str | None, excluding: str, keywords: tuple[str, ...]
    ) -> Mapping[str, pd.DataFrame]:
        return site_top10_drs(self.store, self.account, site, excluding=excluding, keywords=keywords)

    def top10_keywords(self, site: str | None, since: date | None, group: str) -> list[str]:
        return group_keywords(self.store, self.account, site, since=since, until=None, group=group)

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        return self.store.groups.keyword_tags(self.account)

    def market(
        self, site: str | None, since: date | None, group: str, ctr: tuple[float, ...]
    ) -> MarketFigures:
        return market_as_shown(self.store, self.account, site, since=since, until=None, ctr=ctr, group=group)

    def notes(self, since: date | None) -> pd.DataFrame:
        return self.store.notes.entries(self.account, since)

    def brand_terms(self) -> dict[str, tuple[str, ...]]:
        return self.store.groups.brand_terms(self.account)

    def watch_items(self) -> list[WatchTuple]:
        return [(i.kind, i.subject, i.origin, i.site) for i in self.store.watchlist.entries(self.account)]


class QueryCache:
    """Recent answers of one database's reads, shared by every session of the process.

    A key starts with the account it belongs to. An answer is used for ``ttl_s`` at most after it
    arrived (rows the daily job or another replica writes show within that time and the read's own) and
    never after ``changed(account)`` (a write from this process for that account: a Watch, a recorded
    read). Answers are shared, not copied: callers must not change a frame they get. Sessions asking for
    the same answer at the same moment (two first views of a page, a report being built) wait for the
    one read under way instead of reading it again.
    """

    def __init__(self, ttl_s: float = 60.0, max_entries: int = 64) -> None:
        self.ttl_s = ttl_s
        #: account → its generation, one more at each ``changed``; guarded by ``_entries.lock``.
        self._versions: dict[Any, int] = {}
        #: key → (expiry in ``now()`` seconds, the account's generation when read, the answer).
        self._entries: BoundedCache[tuple[Any, ...], tuple[float, int, Any]] = BoundedCache(max_entries)
        #: (key, generation) → the read under way; guarded by ``_entries.lock``.
        self._reading: dict[tuple[tuple[Any, ...], int], Future[Any]] = {}

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
                return cast(T, hit[2])
            under_way = self._reading.get((key, version))
            if under_way is None:
                mine: Future[Any] = Future()
                self._reading[(key, version)] = mine
        if under_way is not None:
            return cast(T, under_way.result())
        try:
            value = read()
        except BaseException as exc:
            with self._entries.lock:
                del self._reading[(key, version)]
            mine.set_exception(exc)
            raise
        with self._entries.lock:
            del self._reading[(key, version)]
            if self._versions.get(key[0], 0) == version:  # not written meanwhile: still current
                # Its time counts from when it arrived: a read longer than the time itself (a year of
                # thousands of keywords) would otherwise be out of date on arrival, read again each rerun.
                self._entries.put(key, (now() + self.ttl_s, version, value))
        mine.set_result(value)
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

    def keyword_summary(self, site: str, since: date | None, until: date | None) -> pd.DataFrame:
        return self._get("keyword_summary", site, since, until)

    def keyword_days(
        self, site: str, keywords: tuple[str, ...], since: date | None, until: date | None
    ) -> pd.DataFrame:
        return self._get("keyword_days", site, tuple(keywords), since, until)

    def serp_history(self, site: str | None, since: date | None) -> pd.DataFrame:
        return self._get("serp_history", site, since)

    def serp_days(self, site: str | None, days: tuple[date, ...]) -> pd.DataFrame:
        return self._get("serp_days", site, days)

    def latest_top10s(self, site: str, keywords: tuple[str, ...], since: date) -> pd.DataFrame:
        return self._get("latest_top10s", site, keywords, since)

    def dr_spread(self, site: str | None, since: date | None, group: str) -> pd.DataFrame:
        return self._get("dr_spread", site, since, group)

    def top10_drs(
        self, site: str | None, excluding: str, keywords: tuple[str, ...]
    ) -> Mapping[str, pd.DataFrame]:
        return self._get("top10_drs", site, excluding, keywords)

    def top10_keywords(self, site: str | None, since: date | None, group: str) -> list[str]:
        return self._get("top10_keywords", site, since, group)

    def keyword_tags(self) -> dict[str, tuple[str, ...]]:
        return self._get("keyword_tags")

    def market(
        self, site: str | None, since: date | None, group: str, ctr: tuple[float, ...]
    ) -> MarketFigures:
        return self._get("market", site, since, group, ctr)

    def notes(self, since: date | None) -> pd.DataFrame:
        return self._get("notes", since)

    def brand_terms(self) -> dict[str, tuple[str, ...]]:
        return self._get("brand_terms")

    def watch_items(self) -> list[WatchTuple]:
        return self._get("watch_items")
