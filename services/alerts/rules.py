"""The alert rules on domains and keywords: history frames in, findings out (pure: no database here).

Each rule looks at one snapshot day of a subject against the snapshots before it, and is
edge-triggered: it fires on the day a condition starts to hold, not on every day it goes on holding
(the snapshot before ``day`` is checked the same way). A subject without a snapshot on ``day`` or
without an earlier one to compare to never fires. The Trust Map and link-exchange rules are in
``services.alerts.link_rules``.

The frames are ``HistoryStore.queries.domain_history`` and ``keyword_history`` frames; ``settings`` is
``HistoryStore.alerts.alert_settings``: a disabled rule finds nothing, thresholds come from there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import pandas as pd

from analysis.wording import counted, in_days, is_missing, plural, say_day, short_number
from store.alerts.catalog import Finding, RuleSetting

#: "7 days before" may be a few days earlier when the job skipped days (the nearest on or before).
WEEK = timedelta(days=7)
WEEK_GAP = timedelta(days=3)
TOP = 10
METRICS = (("dr", "DR"), ("true_dr", "TrueDR"))

Row = dict[str, Any]


def threshold_of(settings: Mapping[str, RuleSetting], rule: str) -> float | None:
    """The rule's threshold when it is enabled (rules without a threshold: 0); None when it is off."""
    setting = settings.get(rule)
    if setting is None or not setting.enabled:
        return None
    return setting.threshold if setting.threshold is not None else 0.0


def _number(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def series_by(frame: pd.DataFrame, keys: tuple[str, ...]) -> dict[tuple[str, ...], list[Row]]:
    """The frame's rows per subject (``keys``), each as a dict with ``day`` a date, oldest first."""
    grouped: dict[tuple[str, ...], list[Row]] = {}
    for record in frame.to_dict("records"):
        record["day"] = pd.Timestamp(record["day"]).date()
        grouped.setdefault(tuple(record[key] for key in keys), []).append(record)
    for rows in grouped.values():
        rows.sort(key=lambda row: row["day"])
    return grouped


def on_day(rows: list[Row], day: date) -> Row | None:
    return next((row for row in reversed(rows) if row["day"] == day), None)


def latest_before(rows: list[Row], day: date) -> Row | None:
    """The latest snapshot before ``day``."""
    return next((row for row in reversed(rows) if row["day"] < day), None)


def week_before(rows: list[Row], day: date) -> Row | None:
    """The snapshot nearest to 7 days before ``day``: on or before it, at most a few days earlier."""
    latest, earliest = day - WEEK, day - WEEK - WEEK_GAP
    return next((row for row in reversed(rows) if earliest <= row["day"] <= latest), None)


# --- domains --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _WeekChange:
    before: float
    after: float
    days: int
    since: date


def _week_change(rows: list[Row], now: Row, column: str) -> _WeekChange | None:
    base = week_before(rows, now["day"])
    if base is None:
        return None
    before, after = _number(base[column]), _number(now[column])
    if before is None or after is None:
        return None
    return _WeekChange(before, after, (now["day"] - base["day"]).days, base["day"])


def _week_fall(rows: list[Row], now: Row, column: str, percent: bool) -> tuple[_WeekChange, float] | None:
    """How far ``column`` fell in about a week up to ``now``: in points, or in percent of where it was
    (None when it cannot be told)."""
    change = _week_change(rows, now, column)
    if change is None or (percent and change.before <= 0):
        return None
    fell = change.before - change.after
    return change, (fell / change.before * 100 if percent else fell)


def newly_fell(
    rows: list[Row], now: Row, previous: Row | None, column: str, threshold: float, *, percent: bool = False
) -> tuple[_WeekChange, float] | None:
    """The week's fall on ``now`` when it reaches ``threshold`` and did not yet on the snapshot before
    (the same fall is told once)."""
    fell = _week_fall(rows, now, column, percent)
    if fell is None or fell[1] < threshold:
        return None
    earlier = _week_fall(rows, previous, column, percent) if previous is not None else None
    if earlier is not None and earlier[1] >= threshold:
        return None
    return fell


def on_its_chart(rule: str, subject: str, day: date, chart: str, **words: Any) -> Finding:
    """A finding whose chart link opens on its own subject (a domain's, a keyword's, a site's market)."""
    return Finding(rule=rule, subject=subject, day=day, chart=chart, chart_subject=subject, **words)


def _fall_finding(
    rule: str, domain: str, day: date, what: str, change: _WeekChange, metric: str, key: str = ""
) -> Finding:
    """A domain's number (``metric``) that fell: "<domain>: <what> in 7 days (<before> → <after>)"."""
    before, after = short_number(change.before), short_number(change.after)
    return on_its_chart(
        rule,
        domain,
        day,
        "domain",
        title=f"{domain}: {what} {in_days(change.days)} ({before} → {after})",
        before=before,
        after=after,
        key=key,
        since=change.since,
        metric=metric,
    )


def _authority_drops(
    domain: str, rows: list[Row], now: Row, previous: Row | None, points: float
) -> list[Finding]:
    found = []
    for column, label in METRICS:
        fell = newly_fell(rows, now, previous, column, points)
        if fell is not None:
            change, by = fell
            what = f"{label} fell {short_number(by)} {plural(by, 'point')}"
            finding = _fall_finding("authority_drop", domain, now["day"], what, change, column, key=column)
            found.append(finding)
    return found


def _referring_domains_fell(
    domain: str, rows: list[Row], now: Row, previous: Row | None, percent: float
) -> list[Finding]:
    fell = newly_fell(rows, now, previous, "referring_domains", percent, percent=True)
    if fell is None:
        return []
    change, share = fell
    what = f"referring domains fell {share:.0f}%"
    return [_fall_finding("referring_domains_fell", domain, now["day"], what, change, "referring_domains")]


#: rule -> (the yes/no column, the title's ending, before, after)
_LOST_FLAGS = {
    "traffic_validation_lost": (
        "traffic_validated",
        "traffic is no longer validated",
        "validated",
        "not validated",
    ),
    "verification_lost": ("verified", "no longer verified", "verified", "not verified"),
}


def _flag_lost(rule: str, domain: str, now: Row, previous: Row | None) -> list[Finding]:
    column, words, before, after = _LOST_FLAGS[rule]
    if previous is None or previous[column] is not True or now[column] is not False:
        return []
    return [
        on_its_chart(
            rule,
            domain,
            now["day"],
            "domain",
            title=f"{domain}: {words} (it was on {say_day(previous['day'])})",
            before=before,
            after=after,
            since=previous["day"],
            metric=column,
        )
    ]


def _flag(value: Any) -> bool | None:
    return None if is_missing(value) else bool(value)


def domain_findings(
    history: pd.DataFrame, days: Sequence[date], settings: Mapping[str, RuleSetting]
) -> list[Finding]:
    """What the domain rules find on each of ``days`` in a ``domain_history`` frame (the watched
    domains'), by day then domain."""
    drop_points = threshold_of(settings, "authority_drop")
    fell_percent = threshold_of(settings, "referring_domains_fell")
    flags = [rule for rule in _LOST_FLAGS if threshold_of(settings, rule) is not None]
    series = sorted(series_by(history, ("domain",)).items())
    for _domain, rows in series:
        for row in rows:
            for column, *_ in _LOST_FLAGS.values():
                row[column] = _flag(row[column])
    found: list[Finding] = []
    for day in days:
        for (domain,), rows in series:
            now = on_day(rows, day)
            if now is None:
                continue
            previous = latest_before(rows, day)
            if drop_points is not None:
                found += _authority_drops(domain, rows, now, previous, drop_points)
            for rule in flags:
                found += _flag_lost(rule, domain, now, previous)
            if fell_percent is not None:
                found += _referring_domains_fell(domain, rows, now, previous, fell_percent)
    return found


# --- keywords -------------------------------------------------------------------------------------


def _ranked(row: Row) -> int | None:
    position = _number(row["position"])
    return None if position is None else int(position)


def _was_read(row: Row) -> bool:
    """Whether the day's row says where the site stood (ranked or not), not merely "not checked"."""
    return _number(row["median_dr"]) is not None and (
        row["site"] != "" or _number(row["user_dr"]) is not None
    )


def _place(position: int | None) -> str:
    return f"#{position}" if position is not None else "not ranking"


def _where(site: str, site_names: Mapping[str, str]) -> str:
    if site == "":
        return ""
    return f" for {site_names.get(site, site)}"


def keyword_findings(
    history: pd.DataFrame,
    days: Sequence[date],
    settings: Mapping[str, RuleSetting],
    site_names: Mapping[str, str] | None = None,
) -> list[Finding]:
    """What the keyword rules find on each of ``days`` in a ``keyword_history`` frame: tracked keywords
    (site: a site's slug) and watched keywords (site: the domain they are measured for; "" for rows from
    before watched keywords had a site, which only fire when their report carried the asking site's DR).

    ``site_names`` turns a tracked site's slug into the domain people know it by.
    """
    names = site_names or {}
    left_on = threshold_of(settings, "keyword_left_top10") is not None
    move_by = threshold_of(settings, "keyword_moved")
    series = sorted(series_by(history, ("site", "keyword")).items())
    found: list[Finding] = []
    for day in days:
        found += _keyword_day(series, day, names, left_on, move_by)
    return found


def _keyword_finding(
    rule: str,
    keyword: str,
    days: tuple[date, date],
    what: str,
    where: tuple[str, str],
    before: int | None,
    after: int | None,
) -> Finding:
    """A keyword's position that changed: "“<keyword>”<where> <what> (<before> → <after>)", where names
    the site it is measured for, so the same keyword for two sites never reads as one. ``days`` are the
    previous snapshot's day and this one's; ``where`` is (the site as stored, its words)."""
    site, words = where
    since, day = days
    return on_its_chart(
        rule,
        keyword,
        day,
        "keyword",
        title=f"“{keyword}”{words} {what} ({_place(before)} → {_place(after)})",
        before=_place(before),
        after=_place(after),
        key=site or "watched",
        since=since,
        site=site,
    )


def _keyword_day(
    series: list[tuple[tuple[str, ...], list[Row]]],
    day: date,
    names: Mapping[str, str],
    left_on: bool,
    move_by: float | None,
) -> list[Finding]:
    found: list[Finding] = []
    for (site, keyword), rows in series:
        now, previous = on_day(rows, day), latest_before(rows, day)
        if now is None or previous is None or not _was_read(now) or not _was_read(previous):
            continue
        before, after = _ranked(previous), _ranked(now)
        where = (site, _where(site, names))
        days = (previous["day"], day)
        if left_on and before is not None and before <= TOP and (after is None or after > TOP):
            left = _keyword_finding(
                "keyword_left_top10", keyword, days, "left the top 10", where, before, after
            )
            found.append(left)
            continue  # told as leaving the top 10, not also as a move
        if move_by is None or before is None or after is None or abs(after - before) < move_by:
            continue
        moved = abs(after - before)
        what = f"{'rose' if after < before else 'fell'} {counted(moved, 'position')}"
        found.append(_keyword_finding("keyword_moved", keyword, days, what, where, before, after))
    return found
