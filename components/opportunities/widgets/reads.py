"""The list's reads through the app's one read path, and the button that reads the missing top 10s.

``read_candidates`` asks the service for the site's suggestions and tracked keywords; here it asks them
through the cached data layer (``PageReads``), so a rerun, a filter or another page's read of the same
list spends no call. A keyword whose top 10 is neither recorded nor stored costs one keyword report:
the page says how many before any is spent, reads them at the service's rate limit with a progress bar
(``gather_opportunities``, its pacer holding every worker back on a 429), and keeps what it read in the
session, so the list stays complete while the person filters, changes the target or watches keywords.
The answers also land in the data layer's cache, where a repeat read costs nothing.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, cast

import streamlit as st

from analysis.text import escape_md
from analysis.wording import counted
from client import ApiClient
from client.errors import InvalidInputError
from client.models import KeywordReport, KeywordSuggestions, TrackedKeywords
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.ui.errors import show_notice
from services.opportunities import Candidates, KeywordReads, NotAsked, gather_opportunities, read_candidates
from services.opportunities.reads import recorded_keywords
from store.history import HistoryStore

#: Where the session keeps the top 10s the button read: (account, site) → what was read.
KEPT = "_opportunities_read"
READ_KEY = "opportunities_read_missing"
#: The fields a keyword report settles on a keyword's row.
SETTLED = ("median_dr", "min_dr", "top10_from", "problem", "position")
#: Clients kept for these reads; a shared dashboard rarely has more keys reading at once.
MAX_READ_CLIENTS = 16


@st.cache_resource(max_entries=MAX_READ_CLIENTS, show_spinner=False)
def _paced_client(base_url: str, fingerprint: str, timeout_s: float, _api_key: str | None) -> ApiClient:
    # It never retries by itself: the run's pacer must see each 429 to hold back all its workers.
    return ApiClient(base_url, _api_key, timeout=timeout_s, max_retries=0)


class PageReads:
    """The three reads the list makes, answered through the cached data layer."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        key = conn.api_key.get_secret_value() if conn.api_key else None
        self.client = _paced_client(conn.base_url, conn.fingerprint, conn.timeout_s, key)

    def keyword_suggestions(self, domain: str) -> KeywordSuggestions:
        return data.keyword_suggestions(self.conn, domain)

    def tracked_keywords(self, slug: str) -> TrackedKeywords:
        return data.tracked_keywords(self.conn, slug)

    def keyword_report(self, keyword: str, domain: str | None = None) -> KeywordReport:
        return data.keyword_report_with_client(self.conn, keyword, domain, self.client)


class CachedReads:
    """The list's reads answered only from the app's cache, never from the service: the Coach spends no
    call of its own, so a read not held there is ``NotAsked`` (the list says so), and no keyword report
    is ever asked."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def _held(self, operation: str, *args: Any) -> Any:
        answer = data.cached_answer(self.conn, operation, *args)
        if answer is None:
            raise NotAsked(f"Not read here: only a cached answer was asked for ({operation}).")
        return answer

    def keyword_suggestions(self, domain: str) -> KeywordSuggestions:
        return cast(KeywordSuggestions, self._held("keyword_suggestions", data.domain(domain)))

    def tracked_keywords(self, slug: str) -> TrackedKeywords:
        return cast(TrackedKeywords, self._held("tracked_keywords", slug))

    def keyword_report(self, keyword: str, domain: str | None = None) -> KeywordReport:
        raise NotAsked("The Coach reads no keyword report: the Opportunities page does, its cost said first.")


@dataclass
class ReadTop10s:
    """What the button read for one site: each keyword's settled fields, which failed, the site's DR."""

    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    site_dr: float | None = None


def _kept(conn: Connection, site: str) -> ReadTop10s | None:
    kept: dict[tuple[str, str], ReadTop10s] = st.session_state.get(KEPT, {})
    return kept.get((conn.fingerprint, site))


def _keep(conn: Connection, site: str, found: Candidates, asked: list[str]) -> None:
    kept: dict[tuple[str, str], ReadTop10s] = st.session_state.setdefault(KEPT, {})
    read = kept.setdefault((conn.fingerprint, site), ReadTop10s())
    for keyword in asked:
        row = found.rows[keyword]
        read.rows[keyword] = {name: row[name] for name in SETTLED}
    read.failed = [keyword for keyword, row in read.rows.items() if not row["top10_from"]]
    if found.site_dr is not None and read.site_dr is None:
        read.site_dr = found.site_dr


def page_candidates(
    conn: Connection, store: HistoryStore, site: str, reads: KeywordReads | None = None
) -> Candidates:
    """The site's keywords (history, suggestions, tracked) with the top 10s read on this page before;
    what the history holds of them is kept in the history's query cache (read afresh after a minute or
    a write of the account), so a rerun neither queries the store nor refits the projections again;
    ``reads`` answer the two listing reads (the page's: through the cache, asking the service on a miss;
    the Coach's ``CachedReads``: from the cache only)."""
    account = conn.fingerprint
    recorded = history.cached_read(
        account, f"opportunities:{site}", lambda: recorded_keywords(store, account, site)
    )
    found = read_candidates(store, reads or PageReads(conn), account, site, recorded)
    read = _kept(conn, site)
    if read is None:
        return found
    for keyword, settled in read.rows.items():
        row = found.rows.get(keyword)
        if row is None or row["top10_from"]:
            continue
        position = row["position"]
        row.update(copy.deepcopy(settled))
        if position is not None:
            row["position"] = position
    found.failed = [k for k in read.failed if k in found.rows and not found.rows[k]["top10_from"]]
    if found.site_dr is None:
        found.site_dr = read.site_dr
    return found


def _cost_words(unread: list[str], cost: int, refused: int = 0) -> str:
    have = f"{counted(len(unread), 'keyword')} {'has' if len(unread) == 1 else 'have'} no recorded top 10"
    calls = f"{counted(cost, 'keyword-report call')}"
    free = len(unread) - cost - refused
    if free:
        calls += f" ({free} read in the last 15 minutes cost nothing)"
    if refused:
        calls += f"; {counted(refused, 'keyword')} the service cannot be asked about (empty or too long)"
    return f"{have}: {calls}."


def read_missing_button(
    conn: Connection, store: HistoryStore, site: str, found: Candidates, ctr: tuple[float, ...], target: int
) -> None:
    """The cost of the missing top 10s in words, then the button that reads them with progress."""
    if found.failed:
        show_notice(
            f"{counted(len(found.failed), 'top 10')} could not be read; each keyword says why in the "
            "Problem column. " + " ".join(found.rows[k]["problem"] for k in found.failed[:3]).strip()
        )
    missing = [*found.unread(), *found.failed]  # a failed read may be tried again
    if not missing:
        if found.rows:
            st.caption("Every keyword's top 10 is known: refreshing the list costs no keyword report.")
        return
    refused = sum(1 for keyword in missing if not _askable(keyword))
    cost = sum(1 for keyword in missing if _askable(keyword) and not _cached(conn, keyword, site))
    st.markdown(escape_md(_cost_words(missing, cost, refused)))
    clicked = st.button(
        f"Read the missing top 10s ({counted(cost, 'call')})",
        key=READ_KEY,
        icon=":material/download:",
        help="Reads each keyword's top 10 (one keyword report each) at the service's rate limit; an "
        "answer read in the last 15 minutes costs nothing.",
    )
    if not clicked:
        return
    for keyword in found.failed:
        found.rows[keyword]["problem"] = ""
    found.failed.clear()
    bar = st.progress(0.0, text="Reading the missing top 10s…")
    done = [0]

    def progress(line: str) -> None:
        done[0] += 1
        bar.progress(min(1.0, done[0] / len(missing)), text=line)

    gather_opportunities(
        store,
        PageReads(conn),
        conn.fingerprint,
        site,
        ctr=ctr,
        target=target,
        candidates=found,
        progress=progress,
    )
    bar.empty()
    _keep(conn, site, found, missing)
    st.rerun()


def _askable(keyword: str) -> bool:
    """Whether the service can be asked about the keyword: one it cannot (empty, too long: a keyword
    sent with markup) is refused in words before any request, on its row, and costs nothing."""
    try:
        data.keyword(keyword)
    except InvalidInputError:
        return False
    return True


def _cached(conn: Connection, keyword: str, site: str) -> bool:
    return data.is_cached(conn, "keyword_report", data.keyword(keyword), data.domain(site))
