"""What the market figures compare and how a domain stands: which domains a chart or a report compares,
every domain's figures on the latest day against the period's first, and the keywords' search volumes
that weigh the volume-weighted visibility. Pure.

Which domains are compared: your own sites and your watched competitors always (a competitor absent
from every top 10 is a line at 0, which is news too), then the largest other shares of voice on the
latest day, up to a limit (``MAX_DOMAINS`` lines on the Market page, one colour each); the
``LEADERS_ALWAYS`` largest are compared even when your sites and competitors fill the limit, so a chart
never leaves out a leader while drawing smaller domains.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from analysis.shaping import over_period

#: Lines one chart compares at most (the History page's colours).
MAX_DOMAINS = 8
#: The largest other shares of voice compared however many sites and competitors are watched.
LEADERS_ALWAYS = 3
#: The latest day's table: a domain's figures and how they moved since the period's first day.
STANDING_COLUMNS = (
    "domain",
    "role",
    "visibility",
    "visibility_change",
    "share_of_voice",
    "share_change",
    "weighted_visibility",
)
YOURS, COMPETITOR, OTHER = "your site", "competitor", "in the top 10s"


def search_volumes(keyword_rows: pd.DataFrame) -> dict[str, float]:
    """Each keyword's latest known monthly search volume, from the history's keyword rows (a tracked
    keyword's snapshot), else its latest Search Console impressions (28 days): the weights of the
    volume-weighted visibility. Keywords with neither are absent."""
    if keyword_rows.empty:
        return {}
    ordered = keyword_rows.sort_values("day", kind="stable")
    latest: dict[str, dict[str, float]] = {}
    for column in ("impressions", "search_volume"):
        known = ordered.dropna(subset=[column]).drop_duplicates("keyword", keep="last")
        latest[column] = dict(zip(known["keyword"].astype(str), known[column].astype(float), strict=True))
    return volumes_of(latest["impressions"], latest["search_volume"])


def volumes_of(impressions: dict[str, float], search_volumes: dict[str, float]) -> dict[str, float]:
    """The weights from each keyword's latest impressions and latest search volume: the volume, when
    known, wins over impressions (``store.latest_values`` keeps both at the database)."""
    return {**impressions, **search_volumes}


def watched_competitors(watched: Iterable[tuple[str, ...]], own: Iterable[str] = ()) -> list[str]:
    """The competitors a market view compares: every watched domain that is not one of your sites.

    ``watched`` is the watchlist as (kind, subject, origin, …) rows; a domain watched with origin "own"
    is one of your sites, and so is any domain in ``own`` (the sites the service lists for the key, which
    the Market page knows before the watchlist does). The Market page and the report both ask here, so
    the lines a client's PDF draws are the lines the screen draws.
    """
    rows = [tuple(row[:3]) for row in watched]
    yours = {*own, *(subject for kind, subject, origin in rows if kind == "domain" and origin == "own")}
    return list(
        dict.fromkeys(subject for kind, subject, _ in rows if kind == "domain" and subject not in yours)
    )


def days_of(figures: pd.DataFrame) -> list[pd.Timestamp]:
    return sorted(pd.to_datetime(figures["day"]).unique())


def compared_domains(
    figures: pd.DataFrame, own: Iterable[str], competitors: Iterable[str], limit: int = MAX_DOMAINS
) -> list[str]:
    """Your sites, your watched competitors, then the latest day's largest shares of voice: up to
    ``limit`` domains, or more when it takes more for the ``LEADERS_ALWAYS`` largest to be among them."""
    fixed = list(dict.fromkeys([*own, *competitors]))
    if figures.empty:
        return fixed[:limit]
    latest = figures[figures["day"] == figures["day"].max()]
    leaders = latest.sort_values(["share_of_voice", "domain"], ascending=[False, True])["domain"]
    others = [domain for domain in leaders if domain not in fixed]
    return [*fixed, *others[: max(limit - len(fixed), LEADERS_ALWAYS)]]


def complete_lines(figures: pd.DataFrame, domains: list[str]) -> pd.DataFrame:
    """The figures of ``domains`` on every day of ``figures``: a domain missing from a day's top 10s
    stands at 0 that day (it was measured, and it was not there)."""
    days = days_of(figures)
    grid = pd.MultiIndex.from_product([days, domains], names=["day", "domain"])
    keyed = figures.set_index(["day", "domain"])[["visibility", "share_of_voice", "weighted_visibility"]]
    filled = keyed.reindex(grid)
    filled[["visibility", "share_of_voice"]] = filled[["visibility", "share_of_voice"]].fillna(0.0)
    weighted_known = figures.groupby("day")["weighted_visibility"].apply(lambda v: bool(v.notna().any()))
    missing_weight = filled["weighted_visibility"].isna()
    on_known_day = filled.index.get_level_values("day").map(weighted_known).to_numpy(dtype=bool)
    filled.loc[missing_weight & on_known_day, "weighted_visibility"] = 0.0
    return filled.reset_index()


def standing(figures: pd.DataFrame, own: Iterable[str], competitors: Iterable[str]) -> pd.DataFrame:
    """Every domain of the latest day (and your sites and competitors even when absent): its figures,
    who it is to you, and the change since the period's first day; by share of voice."""
    if figures.empty:
        return pd.DataFrame(columns=list(STANDING_COLUMNS))
    own, competitors = list(own), list(competitors)
    first_day, last_day = figures["day"].min(), figures["day"].max()
    present = figures.loc[figures["day"] == last_day, "domain"].tolist()
    domains = list(dict.fromkeys([*own, *competitors, *present]))
    lines = complete_lines(figures, domains)
    last = lines[lines["day"] == last_day].set_index("domain")
    # Every domain stands on every day of the lines (0 where absent): a change over the period.
    visibility = over_period(lines, "visibility", "domain").set_index("domain")
    share = over_period(lines, "share_of_voice", "domain").set_index("domain")
    table = pd.DataFrame(
        {
            "domain": domains,
            "role": [YOURS if d in own else COMPETITOR if d in competitors else OTHER for d in domains],
            "visibility": last.loc[domains, "visibility"].to_numpy(),
            "visibility_change": visibility.loc[domains, "change"].to_numpy(),
            "share_of_voice": last.loc[domains, "share_of_voice"].to_numpy(),
            "share_change": share.loc[domains, "change"].to_numpy(),
            "weighted_visibility": last.loc[domains, "weighted_visibility"].to_numpy(),
        }
    )
    if first_day == last_day:
        table[["visibility_change", "share_change"]] = float("nan")
    return table.sort_values(
        ["share_of_voice", "domain"], ascending=[False, True], kind="stable"
    ).reset_index(drop=True)
