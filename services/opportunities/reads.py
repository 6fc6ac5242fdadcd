"""The reads behind the opportunities list: a site's keywords from the history and from two listing
calls (``read_candidates``), what the missing top 10s will cost (``calls_needed``), and those keyword
reports read at the rate limit (``read_top10s``), each failure kept on its keyword in the app's words."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from analysis.error_wording import describe_error
from analysis.opportunities import Projection, site_dr_series
from analysis.opportunities.outlook import outlooks_of
from analysis.opportunities.score import IMPRESSIONS, INPUT_COLUMNS, SEARCH_VOLUME
from analysis.opportunities.series import top10_dr_by_keyword
from client.bulk import BulkRunner, ItemResult, Pacer
from client.errors import ApiError
from client.inputs import slug_for
from client.models import KeywordReport, KeywordSuggestions, TrackedKeywords
from schema.history import SERP_COLUMNS
from services.opportunities.history import site_history
from store.history import HistoryStore

#: Where a keyword's top 10 comes from (``top10_from``).
RECORDED, STORED_SNAPSHOT, KEYWORD_REPORT = "recorded top 10", "stored difficulty snapshot", "keyword report"
#: Keyword reports read at once (the pacer holds them to the key's rate limit): as many as the bulk
#: runner's default, since a keyword report takes longer to answer than a DR lookup.
WORKERS = 8


def _no_progress(_line: str) -> None:
    return None


class NotAsked(ApiError):
    """A read its caller chose not to spend: the Coach lists opportunities only from what the history
    and the app's cache already hold. Raised by such a caller's ``KeywordReads``; the list keeps the
    source as unasked (said as such), never as a failure of the service, and takes the tracked keywords
    as the history last recorded them instead."""


class KeywordReads(Protocol):
    """The three reads the list makes: the API client itself (the command, the report), or a page's
    reads through the app's cache, which answer a read asked before without a request."""

    def keyword_suggestions(self, domain: str) -> KeywordSuggestions: ...

    def tracked_keywords(self, slug: str) -> TrackedKeywords: ...

    def keyword_report(self, keyword: str, domain: str | None = None) -> KeywordReport: ...


@dataclass
class Candidates:
    """The site's keywords before any keyword report: one dict per keyword (``INPUT_COLUMNS`` plus
    ``top10_from`` and ``problem``), the projections of the watched ones, and the sources that could not
    be read (in words)."""

    site: str
    #: The site's DR: its latest recorded, else the first the service gave (a stored snapshot, a report).
    site_dr: float | None = None
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    projections: dict[str, dict[str, Projection]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    #: The keywords whose keyword report failed, and those left unread by the limit of calls.
    failed: list[str] = field(default_factory=list)
    over_limit: list[str] = field(default_factory=list)
    #: The listing reads (suggestions, tracked keywords) its caller chose not to spend (``NotAsked``).
    unasked: list[str] = field(default_factory=list)

    def unread(self) -> list[str]:
        """The keywords whose top 10 is known from nowhere yet, in the order they were found."""
        return [
            keyword
            for keyword, row in self.rows.items()
            if not row["top10_from"] and keyword not in self.failed and keyword not in self.over_limit
        ]


def _words(err: ApiError | None, subject: str) -> str:
    if err is None:
        return "not read: the run stopped before it was asked"
    view = describe_error(err, subject=subject)
    return f"{view.title}: {view.advice}"


def _read(what: str, read: Callable[[], Any], found: Candidates) -> Any:
    """One of the two listing reads (suggestions, tracked keywords), or None with its failure kept (or
    with it kept as unasked, when the caller chose not to spend it)."""
    problems = found.problems
    result = BulkRunner(lambda _item: read(), workers=1).run_all([what])[0]
    if isinstance(result.error, NotAsked):
        found.unasked.append(what)
        return None
    if not result.ok:
        problems.append(f"{what} could not be read ({_words(result.error, what)})")
        return None
    return result.value


def _missing(value: Any) -> bool:
    return value is None or bool(pd.isna(value))


def _row(keyword: str) -> dict[str, Any]:
    empty: dict[str, Any] = dict.fromkeys(INPUT_COLUMNS)
    return {**empty, "keyword": keyword, "top10_from": "", "problem": ""}


@dataclass(frozen=True)
class RecordedKeywords:
    """What the history holds of a site's keywords before any read of the service: its latest DR, a row
    per watched keyword (its recorded top 10 and, when tracked, its recorded position and volume), their
    projections, and the tracked keywords as last recorded (``opportunity_rows``, by keyword). Read once
    and shared (a page keeps it in its query cache): ``read_candidates`` copies the rows it changes."""

    site_dr: float | None
    rows: dict[str, dict[str, Any]]
    projections: dict[str, dict[str, Projection]]
    tracked: pd.DataFrame


def recorded_keywords(store: HistoryStore, account: str, site: str) -> RecordedKeywords:
    """The site's keywords as the history holds them (``RecordedKeywords``)."""
    history = site_history(store, account, site)
    site_dr = site_dr_series(history.domain_rows, site)
    recorded = history.tracked.set_index("keyword")
    rows: dict[str, dict[str, Any]] = {}
    projections: dict[str, dict[str, Projection]] = {}
    for outlook in outlooks_of(history.domain_rows, history.top10s, history.watched):
        keyword, top10 = outlook.keyword, outlook.top10
        row = rows.setdefault(keyword, _row(keyword))
        if keyword in recorded.index:
            mine = recorded.loc[keyword]
            row.update(position=mine["position"], volume=mine["volume"], volume_source=mine["volume_source"])
        if len(top10):
            row.update(median_dr=top10["median_dr"].iloc[-1], min_dr=top10["min_dr"].iloc[-1])
            row["top10_from"] = RECORDED
        projections[keyword] = {"median": outlook.median, "lowest": outlook.lowest}
    return RecordedKeywords(float(site_dr.iloc[-1]) if len(site_dr) else None, rows, projections, recorded)


def read_candidates(
    store: HistoryStore,
    client: KeywordReads,
    account: str,
    site: str,
    recorded: RecordedKeywords | None = None,
) -> Candidates:
    """The site's keywords from the history (``recorded``, read now when None) and from two reads of the
    service (suggestions, tracked)."""
    known = recorded if recorded is not None else recorded_keywords(store, account, site)
    found = Candidates(site, known.site_dr, copy.deepcopy(known.rows), dict(known.projections))
    suggested = _read("keyword suggestions", lambda: client.keyword_suggestions(site), found)
    for suggestion in suggested.suggestions if suggested is not None else []:
        row = found.rows.setdefault(suggestion.keyword, _row(suggestion.keyword))
        row["position"] = suggestion.position
        if suggestion.search_volume is not None:
            row.update(volume=suggestion.search_volume, volume_source=SEARCH_VOLUME)
    tracked = _read("tracked keywords", lambda: client.tracked_keywords(slug_for(site)), found)
    for keyword in tracked.keywords if tracked is not None else []:
        row = found.rows.setdefault(keyword.keyword, _row(keyword.keyword))
        snapshot = keyword.snapshot
        if _missing(row["position"]) and snapshot is not None:
            row["position"] = snapshot.user_position
        if _missing(row["volume"]) and snapshot is not None and snapshot.search_volume is not None:
            row.update(volume=snapshot.search_volume, volume_source=SEARCH_VOLUME)
        if _missing(row["volume"]) and keyword.impressions is not None:
            row.update(volume=keyword.impressions, volume_source=IMPRESSIONS)
        if found.site_dr is None and snapshot is not None and snapshot.user_dr is not None:
            found.site_dr = float(snapshot.user_dr)
        if not row["top10_from"] and snapshot is not None and snapshot.median_dr is not None:
            row.update(median_dr=snapshot.median_dr, min_dr=snapshot.min_dr, top10_from=STORED_SNAPSHOT)
    if tracked is None and "tracked keywords" in found.unasked:
        _recorded_tracked(found, known.tracked)
    return found


def _recorded_tracked(found: Candidates, recorded: pd.DataFrame) -> None:
    """The tracked keywords as the history last recorded them (their list was not asked for): each
    one's position, volume and stored difficulty snapshot, taken as the read list's would be."""
    for keyword, mine in recorded.iterrows():
        row = found.rows.setdefault(str(keyword), _row(str(keyword)))
        if _missing(row["position"]) and not _missing(mine["position"]):
            row["position"] = mine["position"]
        if _missing(row["volume"]) and not _missing(mine["volume"]):
            row.update(volume=mine["volume"], volume_source=mine["volume_source"])
        if found.site_dr is None and not _missing(mine["site_dr"]):
            found.site_dr = float(mine["site_dr"])
        if not row["top10_from"] and not _missing(mine["median_dr"]):
            row.update(median_dr=mine["median_dr"], min_dr=mine["min_dr"], top10_from=STORED_SNAPSHOT)


def calls_needed(candidates: Candidates, max_calls: int | None = None) -> int:
    """The keyword reports a refresh of the list spends: one per keyword whose top 10 is known from
    nowhere, at most ``max_calls``."""
    needed = len(candidates.unread())
    return needed if max_calls is None else min(needed, max(0, max_calls))


def _top10s(reports: dict[str, KeywordReport], site: str) -> Mapping[str, pd.DataFrame]:
    """Each report's top 10 by day without the site's own results (as the history's are taken), all in
    one pass of the one definition (``top10_dr_by_keyword``): a frame per report made the refresh spend
    more of the processor than its reads took at the rate limit. A keyword with no rated result is
    absent."""
    rows = pd.DataFrame(
        [
            ("", keyword, pd.Timestamp(0), r.position, r.domain, r.dr)
            for keyword, report in reports.items()
            for r in report.results
        ],
        columns=list(SERP_COLUMNS),
    )
    return top10_dr_by_keyword(rows, site) if not rows.empty else {}


def read_top10s(
    candidates: Candidates,
    client: KeywordReads,
    *,
    max_calls: int | None = None,
    progress: Callable[[str], None] = _no_progress,
    pacer: Pacer | None = None,
) -> int:
    """Read the keyword report of each keyword whose top 10 is unknown (at most ``max_calls``) into
    ``candidates``; each failure kept on its keyword. The number of requests sent (a 429 retried is
    one more; a keyword the reads stopped before, after a refusal of every further one, is none)."""
    unread = candidates.unread()
    asked = unread[: calls_needed(candidates, max_calls)]
    for keyword in unread[len(asked) :]:
        candidates.over_limit.append(keyword)
        candidates.rows[keyword]["problem"] = (
            f"top 10 not read: over the limit of {max_calls} keyword-report calls for this refresh"
        )
    if not asked:
        return 0
    site = candidates.site
    runner: BulkRunner[KeywordReport] = BulkRunner(
        lambda keyword: client.keyword_report(keyword, site),
        workers=WORKERS,
        pacer=pacer or Pacer.for_limit(getattr(client, "limit_name", None)),
    )
    sent = 0
    reports: dict[str, KeywordReport] = {}
    for done, result in enumerate(runner.run(asked), start=1):
        sent += result.attempts
        line = _settle(candidates.rows[result.item], result)
        if result.ok and result.value is not None:
            reports[result.item] = result.value
        user = result.value.user if result.value is not None else None
        if candidates.site_dr is None and user is not None and user.dr is not None:
            candidates.site_dr = float(user.dr)
        if not result.ok:
            candidates.failed.append(result.item)
        progress(f"[{done}/{len(asked)}] top 10 of “{result.item}”: {line}")
    top10s = _top10s(reports, site)
    for keyword, report in reports.items():
        _keep_top10(candidates.rows[keyword], report, top10s.get(keyword), site)
    return sent


def _settle(row: dict[str, Any], result: ItemResult[KeywordReport]) -> str:
    report = result.value
    if not result.ok or report is None:
        words = _words(result.error, f"“{result.item}”")
        row["problem"] = (
            f"top 10 not asked: the reads stopped ({words})"
            if result.skipped
            else (f"top 10 not read ({words})")
        )
        return "not asked" if result.skipped else "failed"
    return "read"


def _keep_top10(row: dict[str, Any], report: KeywordReport, top10: pd.DataFrame | None, site: str) -> None:
    """A read report's top 10 into its keyword's row: its median and lowest DR, and the site's position
    in it when the row knew none."""
    if top10 is None or top10.empty:
        row.update(top10_from=KEYWORD_REPORT, problem="top 10 read, but none of its results has a DR")
        return
    row.update(
        median_dr=float(top10["median_dr"].iloc[-1]),
        min_dr=float(top10["min_dr"].iloc[-1]),
        top10_from=KEYWORD_REPORT,
    )
    if _missing(row["position"]):
        row["position"] = next((r.position for r in report.results if r.domain == site), None)
