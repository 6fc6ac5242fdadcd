"""History shaping: store rows → what the History page shows. Pure: no Streamlit, no database.

Every function takes the DataFrames the store's queries return (their columns are fixed once, in
``store.queries``) and keeps missing values missing: a day the service gave no TrueDR is a gap in a
line, never a 0.
"""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd

from schema.history import KEYWORD_BEST_COLUMNS, KEYWORD_SUMMARY_COLUMNS

#: The numbers a domain's trend shows, as a person calls them.
TREND_METRICS: dict[str, str] = {
    "dr": "DR",
    "true_dr": "TrueDR",
    "trust_score": "Trust",
    "traffic": "Traffic",
    "referring_domains": "Referring domains",
}
RATINGS = ("dr", "true_dr")
#: The periods a trend can cover; None is everything the store holds.
PERIODS: dict[str, int | None] = {"30 days": 30, "90 days": 90, "365 days": 365, "All": None}
TOP_10 = 10
#: The smallest week-over-week DR / TrueDR move worth a mark: ratings are whole numbers, so a point
#: either way is often rounding, not a change anyone should act on.
MIN_MOVE = 2


def empty(columns: tuple[str, ...]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=object) for c in columns})


def since(period: str, today: date) -> date | None:
    """The first day a period covers (``today`` counts as one of its days); None for "All"."""
    days = PERIODS.get(period)
    return None if days is None else today - timedelta(days=days - 1)


def with_days(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy whose ``day`` column is a datetime (dates or strings from any store), sorted by day."""
    out = frame.copy()
    out["day"] = pd.to_datetime(out["day"]).dt.normalize()
    return out.sort_values("day", kind="stable").reset_index(drop=True)


def _numbers(frame: pd.DataFrame, columns: tuple[str, ...] | list[str]) -> pd.DataFrame:
    out = frame.copy()
    for column in columns:
        out[column] = pd.to_numeric(out[column], errors="coerce").astype("Float64")
    return out


def whole_numbers(frame: pd.DataFrame, columns: list[str] | tuple[str, ...]) -> pd.DataFrame:
    """Columns whose values are all whole numbers as integers (missing kept missing), so a CSV reads
    "91", not "91.0"; a column with a fraction (a median DR of 39.5) stays as it is."""
    out = frame.copy()
    for column in columns:
        values = pd.to_numeric(out[column], errors="coerce").astype("Float64")
        known = values.dropna()
        if (known == known.round()).all():
            out[column] = values.round().astype("Int64")
    return out


def single_day(history: pd.DataFrame) -> date | None:
    """The one day the rows were recorded on, when they hold exactly one day; else None."""
    if history.empty:
        return None
    days = pd.to_datetime(history["day"]).dt.date.unique()
    return days[0] if len(days) == 1 else None


def one_day_words(day: date, *, first: bool) -> str:
    """What a chart of one recorded day means: the first day of its history (nothing came before; the
    next days are added as they are recorded), or the only day of the period (earlier ones exist)."""
    if first:
        return (
            f"{day:%b %d, %Y} is the first recorded day, so the chart has one point. Each day the "
            "snapshot job runs (or someone opens it in the app) adds the next."
        )
    return f"Only {day:%b %d, %Y} is recorded in this period; a longer period shows the days before it."


def week_over_week(history: pd.DataFrame, metrics: tuple[str, ...] = tuple(TREND_METRICS)) -> pd.DataFrame:
    """Each domain's numbers at the end of each week (the week's last recorded value, weeks ending on
    Sunday) and their change since the previous recorded week; newest week first. The week under way
    ends on the latest day recorded, so no row is dated in the future.

    Columns: domain, week_ending, then ``<metric>`` and ``<metric>_change`` for each metric. A week
    without any record is left out, so a change always compares two weeks that hold values.
    """
    columns = ["domain", "week_ending"] + [c for m in metrics for c in (m, f"{m}_change")]
    if history.empty:
        return empty(tuple(columns))
    frame = _numbers(with_days(history), list(metrics))
    parts = []
    for domain, rows in frame.groupby("domain", sort=True):
        weekly = rows.set_index("day")[list(metrics)].resample("W-SUN").last().dropna(how="all")
        changes = weekly.diff().add_suffix("_change")
        part = pd.concat([weekly, changes], axis=1).reset_index(names="week_ending")
        part.insert(0, "domain", domain)
        parts.append(part)
    out = pd.concat(parts, ignore_index=True)
    # The week under way ends on the latest recorded day, not on a Sunday still to come.
    out["week_ending"] = out["week_ending"].clip(upper=frame["day"].max()).dt.date
    out = out.sort_values(["week_ending", "domain"], ascending=[False, True], kind="stable")
    return whole_numbers(out.loc[:, columns].reset_index(drop=True), columns[2:])


def largest_moves(
    history: pd.DataFrame, metrics: tuple[str, ...] = RATINGS, n: int = 5, min_change: float = MIN_MOVE
) -> pd.DataFrame:
    """The ``n`` largest week-over-week moves of at least ``min_change`` points, at most one per domain
    and metric (its largest), so the marks spread over the domains compared instead of piling onto one
    noisy line; none when every week held within a point (nothing worth a mark).

    A week's value is its last recorded one (weeks end on Sunday). Columns: domain, metric, day (the
    last recorded day of the week that moved, where the mark sits on the line), value, change,
    previous_day. Largest by size, up or down; of two moves of one size the later comes first.
    """
    columns = ("domain", "metric", "day", "value", "change", "previous_day")
    if history.empty:
        return empty(columns)
    frame = _numbers(with_days(history), list(metrics))
    frame["week"] = frame["day"].dt.to_period("W-SUN")
    parts = []
    for metric in metrics:
        known = frame[frame[metric].notna()]
        weekly = known.groupby(["domain", "week"], sort=True).tail(1).sort_values(["domain", "day"])
        weekly = weekly.assign(
            value=weekly[metric].astype(float),
            change=weekly.groupby("domain")[metric].diff().astype(float),
            previous_day=weekly.groupby("domain")["day"].shift(),
            metric=metric,
        )
        moved = weekly[weekly["change"].abs() >= max(min_change, 1e-9)]
        moved = moved.assign(size=moved["change"].abs()).sort_values(
            ["size", "day"], ascending=[False, False], kind="stable"
        )
        parts.append(moved.drop_duplicates("domain"))  # each domain's largest move of this metric
    moves = pd.concat(parts, ignore_index=True)
    if moves.empty:
        return empty(columns)
    moves = moves.sort_values(["size", "day"], ascending=[False, False], kind="stable").head(n)
    return moves.loc[:, list(columns)].reset_index(drop=True)


def best_positions(history: pd.DataFrame) -> pd.DataFrame:
    """Each keyword that ranked in ``history``: its best position and the first day it was reached
    (columns ``KEYWORD_BEST_COLUMNS``, by keyword), the same answer the store's ``keyword_months.best``
    gives when ``history`` is all of a site's rows."""
    if history.empty:
        return empty(KEYWORD_BEST_COLUMNS)
    frame = _numbers(with_days(history), ["position"])
    ranked = frame[frame["position"].notna()].sort_values(["keyword", "day"], kind="stable")
    # Rows are in day order within a keyword, so the first minimum is the earliest day at the best.
    best = ranked.loc[ranked.groupby("keyword", sort=True)["position"].idxmin()]
    out = pd.DataFrame(
        {
            "keyword": best["keyword"].to_numpy(),
            "best_position": best["position"].astype("Int64").to_numpy(),
            "best_day": best["day"].dt.date.to_numpy(),
        }
    )
    return out.reset_index(drop=True)


def keyword_summary(history: pd.DataFrame, best: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per keyword in ``history`` (the period shown): its latest position and the change from
    the recorded day before, the best position ever and the first day it was reached, days in the top
    10 out of days recorded in the period, and the latest gap to the top 10's median DR. Best-placed
    first; keywords never ranked last.

    ``best`` is each keyword's best over all the history kept (``HistorySource.keyword_best``), so "best
    ever" stays put when the period changes; without it the best is read from ``history`` itself,
    which is right only when ``history`` is all there is.
    """
    if history.empty:
        return empty(KEYWORD_SUMMARY_COLUMNS)
    frame = _numbers(with_days(history), ["position", "median_dr", "gap"])
    frame = frame.drop_duplicates(["keyword", "day"], keep="last").sort_values(
        ["keyword", "day"], kind="stable"
    )
    frame["earlier"] = frame.groupby("keyword", sort=False)["position"].shift()
    latest = frame.groupby("keyword", sort=True).tail(1).set_index("keyword")
    ranked = frame[frame["position"].notna()]
    # The period's own best counts too: a row newer than the all-time answer (read a moment apart) wins.
    known = [b for b in (best, best_positions(frame)) if b is not None and not b.empty]
    both = pd.concat(known, ignore_index=True) if known else empty(KEYWORD_BEST_COLUMNS)
    both = both.assign(best_position=pd.to_numeric(both["best_position"]).astype("Float64"))
    best = (
        both.sort_values(["keyword", "best_position", "best_day"], kind="stable")
        .drop_duplicates("keyword")
        .set_index("keyword")
    )
    in_top_10 = ranked[ranked["position"] <= TOP_10].groupby("keyword").size()
    out = pd.DataFrame(
        {
            "keyword": latest.index,
            "position": latest["position"].to_numpy(),
            "change": (latest["earlier"] - latest["position"]).to_numpy(),  # up the ranking is positive
            "best_position": best["best_position"].reindex(latest.index).to_numpy(),
            "best_day": best["best_day"].reindex(latest.index).to_numpy(),
            "days_in_top_10": in_top_10.reindex(latest.index, fill_value=0).astype(int).to_numpy(),
            "days_recorded": frame.groupby("keyword", sort=True).size().reindex(latest.index).to_numpy(),
            "median_dr": latest["median_dr"].to_numpy(),
            "gap": latest["gap"].to_numpy(),
            "latest_day": latest["day"].dt.date.to_numpy(),
        }
    )
    return ranked_summary(out)


def _dates(values: pd.Series) -> pd.Series:
    """Days as ``date`` objects, a missing one as None (what a table's date column and a CSV want)."""
    days = pd.to_datetime(pd.Series(values, index=values.index))
    return days.dt.date.astype(object).where(days.notna(), None)


def ranked_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """A keyword summary's rows (``KEYWORD_SUMMARY_COLUMNS``, any order, from ``keyword_summary`` or from
    the database's ``HistorySource.keyword_summary``) as the page shows them: best placed first, keywords
    never ranked last, then by keyword; whole numbers as integers, days as dates, no first day at best
    without a best. The one ordering and typing of both paths, so they give the same frame."""
    if summary.empty:
        return empty(KEYWORD_SUMMARY_COLUMNS)
    out = _numbers(summary.loc[:, list(KEYWORD_SUMMARY_COLUMNS)], ["position", "change", "best_position"])
    for value in ("median_dr", "gap"):
        out[value] = pd.to_numeric(out[value], errors="coerce").astype("float64")
    out["keyword"] = pd.Series(out["keyword"].tolist(), index=out.index)
    out["best_day"] = _dates(out["best_day"]).where(out["best_position"].notna(), None)
    out["latest_day"] = _dates(out["latest_day"])
    for count in ("days_in_top_10", "days_recorded"):
        out[count] = out[count].astype("int64")
    out["unranked"] = out["position"].isna()
    out = out.sort_values(["unranked", "position", "keyword"], kind="stable").drop(columns="unranked")
    return whole_numbers(
        out.reset_index(drop=True), ["position", "change", "best_position", "median_dr", "gap"]
    )


def chart_keywords(summary: pd.DataFrame, n: int = 8) -> list[str]:
    """The keywords a rank chart starts with: the ``n`` best placed today (the summary's order)."""
    return [str(k) for k in summary["keyword"].head(n)]


def keyword_rows(history: pd.DataFrame, keywords: list[str]) -> pd.DataFrame:
    """The history of some keywords only, one row per keyword and day (the latest write wins)."""
    if history.empty:
        return with_days(history) if "day" in history else history
    frame = history[history["keyword"].isin(keywords)]
    numbers = ["position", "previous_position", "median_dr", "gap", "user_dr"]
    frame = _numbers(with_days(frame), numbers)
    return whole_numbers(
        frame.drop_duplicates(["keyword", "day"], keep="last").reset_index(drop=True), numbers
    )
