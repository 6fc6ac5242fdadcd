"""One keyword report → pandas DataFrames, and its plain-language reading. Pure functions.

A SERP row whose DR the service could not resolve keeps DR as NA: it is shown as unknown and left out
of every median or minimum computed here, because counting it as 0 would make a keyword look easier
than it is.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Literal

import pandas as pd

from analysis.text import safe_http_url
from analysis.wording import plural, short_number
from client.errors import InvalidInputError
from client.inputs import normalise_domain
from client.models import KeywordReport, SerpResult

#: The service's tier rule (contract notes): boost when the gap is ≤ 0, advanced up to 10, else ultra.
ADVANCED_MAX_GAP = 10
TIER_LABELS = {
    "boost": "boost (your DR at or above the median)",
    "advanced": "advanced (within 10 DR below the median)",
    "ultra": "ultra (more than 10 DR below the median)",
}
#: What a tier column's help says: the tiers in words, from ``TIER_LABELS``.
TIER_HELP = f"The service's historical label for the gap, not a plan name: {'; '.join(TIER_LABELS.values())}."

SERP_COLUMNS: dict[str, str] = {
    "position": "Int64",
    "domain": "string",
    "dr": "Int64",
    "title": "string",
    "url": "string",
    "tracked_site": "string",
    "tracked_slug": "string",
}


def _scalar(value: object) -> object:
    """Extra fields go into tables only as plain values; nested ones are shown as text."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def gap_words(gap: float | None) -> str | None:
    """The gap to the top 10 in words: which side of the median DR your DR is, and by how much.

    The service's gap is median DR − your DR (contract notes), so "Gap −21" means you are 21 DR
    *above* the median: read bare, the sign points the wrong way for most people.
    """
    if gap is None or pd.isna(gap):
        return None
    if gap == 0:
        return "level with the median"
    amount = short_number(abs(gap))
    return f"{amount} DR short of the median" if gap > 0 else f"{amount} DR above the median"


# --- one report ---------------------------------------------------------------------------------


def known_drs(results: Iterable[SerpResult]) -> list[int]:
    """The DRs the service resolved; unknown ones are left out, never counted as 0."""
    return [row.dr for row in results if row.dr is not None]


def known_median(values: Iterable[float | None]) -> float | None:
    """Median of the known values, None when nothing is known."""
    known = [float(v) for v in values if v is not None and not pd.isna(v)]
    return float(statistics.median(known)) if known else None


def report_median(report: KeywordReport) -> float | None:
    """The service's medianDr, or the median of the resolved rows when the service sent none."""
    return report.median_dr if report.median_dr is not None else known_median(known_drs(report.results))


def report_min(report: KeywordReport) -> float | None:
    if report.min_dr is not None:
        return report.min_dr
    known = known_drs(report.results)
    return float(min(known)) if known else None


def tracked_site(result: SerpResult, your_slugs: Collection[str]) -> str | None:
    """Whether the service tracks the result's site, in words: "your site", "yes", or None.

    The service says so with the site's slug (``example-com``), an identifier no person needs here:
    the row's domain already names the site.
    """
    if not result.tracked_slug:
        return None
    return "your site" if result.tracked_slug in your_slugs else "yes"


def serp_frame(report: KeywordReport, your_slugs: Collection[str] = ()) -> pd.DataFrame:
    """The top 10 in position order; extra fields the service adds become extra columns.

    Only http(s) result URLs are kept, so a table link can never run script. ``tracked_site`` says
    in words whether the service tracks the site (``your_slugs``: the slugs of your sites); the
    service's ``tracked_slug`` stays for the raw download.
    """
    rows: list[dict[str, object]] = []
    extras: dict[str, None] = {}
    for result in sorted(report.results, key=lambda r: r.position):
        row: dict[str, object] = {
            "position": result.position,
            "domain": result.domain,
            "dr": result.dr,
            "title": result.title,
            "url": safe_http_url(result.url),
            "tracked_site": tracked_site(result, your_slugs),
            "tracked_slug": result.tracked_slug,
        }
        for name, value in (result.model_extra or {}).items():
            extras.setdefault(name, None)
            row[name] = _scalar(value)
        rows.append(row)
    frame = pd.DataFrame(rows, columns=[*SERP_COLUMNS, *extras])
    return frame.astype(SERP_COLUMNS)


def present_columns(frame: pd.DataFrame, optional: Iterable[str]) -> list[str]:
    """The frame's columns minus the optional ones that hold no value at all (nothing to show)."""
    optional = set(optional)
    return [c for c in frame.columns if c not in optional or frame[c].notna().any()]


Level = Literal["success", "info", "warning"]


@dataclass(frozen=True)
class Verdict:
    """What a report means for the user's site, in words a marketer acts on."""

    level: Level
    headline: str
    detail: str


def _site_of(domain: str) -> str:
    """A domain as the site it belongs to (``www.example.com`` → ``example.com``); as typed, lower
    case, when it is not a public domain."""
    try:
        return normalise_domain(domain)
    except InvalidInputError:
        return domain.strip().lower()


def site_position(report: KeywordReport) -> int | None:
    """Where the asked-for site stands in the report's top 10 (its best-placed page); None when it is
    not in it or no site was asked for."""
    if report.user is None:
        return None
    site = _site_of(report.user.domain)
    places = [row.position for row in report.results if _site_of(row.domain) == site]
    return min(places) if places else None


def _points(amount: float) -> str:
    return f"{short_number(abs(amount))} {plural(abs(amount), 'point')}"


def _above_words(report: KeywordReport, position: int) -> str:
    """The results above ``position`` in words: "the 4 results above you (median DR 52)"."""
    above = [row for row in report.results if row.position < position]
    median = known_median(row.dr for row in above)
    said = "the result above you" if len(above) == 1 else f"the {len(above)} results above you"
    if median is not None:
        said += f" ({'DR' if len(above) == 1 else 'median DR'} {short_number(median)})"
    return said


def _in_top_10(report: KeywordReport, position: int, median: float | None, gap: float | None) -> Verdict:
    """The reading for a site already in the top 10: where it stands, and what its gap means there
    (a site that ranks is never "short" of a place it holds)."""
    user_dr = report.user.dr if report.user else None
    headline = "You hold #1 for this keyword" if position == 1 else f"You rank #{position}, in the top 10"
    if user_dr is None or median is None or gap is None:
        return Verdict(
            "success",
            headline,
            "The service could not resolve enough ratings to compare your DR with the rest of the top 10.",
        )
    versus = f"the median DR of the top 10 ({short_number(median)})"
    above = _above_words(report, position) if position > 1 else ""
    if gap <= 0:
        detail = f"Your DR {user_dr} clears {versus}" + (f" by {_points(gap)}" if gap < 0 else "") + ": "
        detail += (
            "authority is on your side. Keep the page the best answer to hold the spot."
            if position == 1
            else f"authority is not what keeps you below {above}; content and search intent are."
        )
        return Verdict("success", headline, detail)
    detail = (
        f"Your DR {user_dr} is {_points(gap)} below {versus}, yet your page ranks #{position}: its content "
        "and relevance carry it. "
    )
    detail += (
        "Links that lift your DR help you keep the spot against sites with more authority."
        if position == 1
        else f"Links that lift your DR help you climb past {above} and keep your place."
    )
    return Verdict("success", headline, detail)


def verdict(report: KeywordReport) -> Verdict | None:
    """The reading of the user's standing for the keyword; None when no domain was given.

    A site already in the top 10 is told where it stands and what its gap means there
    (``site_position``); only a site outside it is told how far short it is of the median DR.
    """
    user = report.user
    if user is None:
        return None
    median = report_median(report)
    lowest = report_min(report)
    gap = user.gap if user.gap is not None else None
    if gap is None and user.dr is not None and median is not None:
        gap = median - user.dr
    position = site_position(report)
    if position is not None:
        return _in_top_10(report, position, median, gap)
    if user.dr is None or median is None or gap is None:
        return Verdict(
            "info",
            "No verdict: the DR needed is unknown",
            "The service could not resolve enough ratings to measure the gap for this keyword.",
        )
    median_text, gap_text = short_number(median), short_number(abs(gap))
    beats_weakest = lowest is not None and user.dr >= lowest
    weakest = (
        f" The weakest page in the top 10 has DR {short_number(lowest)}, so authority alone does not "
        "shut you out."
        if beats_weakest
        else ""
    )
    if gap <= 0:
        return Verdict(
            "success",
            "Winnable on authority",
            f"Your site is not in the top 10 yet, but your DR {user.dr} clears the median DR of the top 10 "
            f"({median_text})"
            + (f" by {gap_text} {plural(abs(gap), 'point')}" if gap < 0 else "")
            + ". Content quality and search intent decide this one, not links.",
        )
    if gap <= ADVANCED_MAX_GAP:
        return Verdict(
            "info",
            f"Within reach: {gap_text} DR short",
            f"Your site is not in the top 10 yet. The median DR of the top 10 is {median_text} and yours "
            f"is {user.dr}. A few strong, relevant links plus a better page than the current results can "
            f"close the gap.{weakest}",
        )
    return Verdict(
        "warning",
        f"A long climb: {gap_text} DR short",
        f"Your site is not in the top 10 yet. The median DR of the top 10 is {median_text} and yours is "
        f"{user.dr}. Expect to need a sustained link-building effort, or pick a less contested keyword "
        f"first.{weakest}",
    )
