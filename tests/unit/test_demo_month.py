"""A month of demo days reads like a real site's month: ratings, traffic, referring domains and tracked
positions move over weeks (by bounded daily steps), a month has something that rose and something
that fell, and the watched keywords' top 10s reshuffle so visibility and share of voice differ between
domains (the key's followed competitors among them) and move over 90 days. All of it pure: the
sandbox's answers for a day, no server and no store.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import date, timedelta

import pandas as pd

from analysis.market import DEFAULT_CTR
from analysis.market.figures import visibility_and_share
from analysis.market.standing import compared_domains, complete_lines
from client.models import Lookup
from sandbox.demo_history import WATCHED_KEYWORDS, asking_domain, demo_subjects, lookup_on, tracked_on
from sandbox.keyword_data import serp_on

DEMO = demo_subjects("vdr_demo")
OWN_SITES = (*DEMO.own_sites, *demo_subjects("vdr_free").own_sites)
#: The last day of each month looked at: the month the report tests print (October 2026), months
#: either side of the epoch, and one far ahead.
MONTH_ENDS = (date(2026, 10, 31), date(2025, 3, 31), date(2025, 8, 31), date(2026, 5, 31), date(2027, 6, 30))
LAST_DAY = date(2026, 11, 26)

Figure = Callable[[Lookup], int | None]
FIGURES: dict[str, Figure] = {
    "DR": lambda lookup: lookup.authority.dr,
    "TrueDR": lambda lookup: lookup.authority.true_dr,
    "traffic": lambda lookup: lookup.evidence.traffic,
    "referring domains": lambda lookup: lookup.evidence.referring_domains,
}
#: The figures a report's summary compares from the month's first day to its last.
SUMMARY: dict[str, Figure] = {**FIGURES, "trust": lambda lookup: lookup.authority.trust_score}


def _month(last: date) -> list[date]:
    return [last - timedelta(days=back) for back in range(last.day - 1, -1, -1)]


def _series(site: str, days: list[date], figures: dict[str, Figure] = FIGURES) -> dict[str, list[int]]:
    lookups = [lookup_on(site, day) for day in days]
    series: dict[str, list[int]] = {}
    for name, figure in figures.items():
        values = [figure(lookup) for lookup in lookups]
        if all(value is not None for value in values):
            series[name] = [int(value) for value in values if value is not None]
    return series


def _largest_step(name: str, values: list[int]) -> tuple[int, int]:
    """The largest day-to-day move seen, and the largest a real site's numbers plausibly make."""
    step = max(abs(a - b) for a, b in itertools.pairwise(values))
    if name in ("DR", "TrueDR"):
        return step, 2
    # Traffic and referring domains: a few per cent a day (at least a handful for small numbers).
    return step, max(3, round(max(values) * 0.05))


def test_a_month_of_each_own_sites_ratings_traffic_and_referring_domains_moves_by_small_steps() -> None:
    for last in MONTH_ENDS:
        for site in OWN_SITES:
            series = _series(site, _month(last))
            assert {"DR", "referring domains"} <= series.keys(), (site, last)
            for name, values in series.items():
                if name in ("DR", "TrueDR") and max(values) == 0:
                    continue  # a tiny blog's rating resting at the scale's floor holds at 0
                assert len(set(values)) >= 2, (site, last, name, values)  # not held all month
                step, largest = _largest_step(name, values)
                assert step <= largest, (site, last, name, values)


def _position_changes(site: str, days: list[date]) -> list[int]:
    """Each tracked keyword's places gained (positive) or lost from the first day to the last."""
    first, last = (tracked_on("vdr_demo", site, day).keywords for day in (days[0], days[-1]))
    return [
        a.snapshot.user_position - b.snapshot.user_position
        for a, b in zip(first, last, strict=True)
        if a.snapshot.user_position is not None and b.snapshot.user_position is not None
    ]


def test_last_months_report_of_each_of_the_demo_keys_sites_has_gains_and_losses() -> None:
    """October 2026 (the month the report tests print), first day against last: the summary's figures
    and the tracked keywords' positions of every site show something gained and something lost."""
    days = _month(MONTH_ENDS[0])
    for site in DEMO.own_sites:
        series = _series(site, days, SUMMARY)
        changes = [values[-1] - values[0] for values in series.values()] + _position_changes(site, days)
        assert any(change > 0 for change in changes), (site, changes)
        assert any(change < 0 for change in changes), (site, changes)


def test_tracked_positions_move_within_a_month() -> None:
    for site in DEMO.own_sites:
        moved = 0
        for keyword_index in range(len(tracked_on("vdr_demo", site, LAST_DAY).keywords)):
            positions = {
                tracked_on("vdr_demo", site, day).keywords[keyword_index].snapshot.user_position
                for day in _month(MONTH_ENDS[0])
            }
            moved += len(positions) >= 2
        assert moved >= 2, site  # most of a site's weekly checks find another position in a month


def _market(site: str, last: date, days: int) -> pd.DataFrame:
    """Visibility and share of voice of the keywords watched for ``site`` (the Market page's figures)."""
    keywords = [k for k in WATCHED_KEYWORDS["vdr_demo"] if asking_domain("vdr_demo", k) == site]
    rows = [
        {"day": pd.Timestamp(day), "keyword": k, "position": r.position, "domain": r.domain, "dr": r.dr}
        for day in (last - timedelta(days=back) for back in range(days))
        for k in keywords
        for r in serp_on(k, day)
    ]
    top10s = pd.DataFrame(rows).sort_values(["day", "keyword", "position"]).reset_index(drop=True)
    return visibility_and_share(top10s, DEFAULT_CTR)


def test_example_coms_visibility_moves_over_90_days() -> None:
    figures = _market("example.com", LAST_DAY, 90)
    own = figures[figures["domain"] == "example.com"]
    assert len(own) == 90 and own["visibility"].round(2).nunique() >= 4


def test_the_top_domains_shares_of_voice_differ_from_one_another_and_move() -> None:
    """No tie at the top: the leading domains' shares of voice over 90 days are five different numbers,
    and each of them moves from day to day over the 90 days."""
    figures = _market("example.com", LAST_DAY, 90)
    total = figures.groupby("domain")["share_of_voice"].sum().round(2).nlargest(5)
    assert total.nunique() == 5, total
    for domain in total.index:
        daily = figures[figures["domain"] == domain]["share_of_voice"].round(2)
        assert daily.nunique() >= 2, domain


def test_on_most_days_no_three_compared_domains_share_a_visibility() -> None:
    """The lines the Market page compares for each demo site's watched keywords (the site, the key's
    followed competitors, the largest other shares of voice) are distinct on most days of 90: three or
    more of them share a day's visibility on at most one day in five. The followed competitors rank
    for the sites' keywords, so they do not all stand at 0 together, each in its own band of places."""
    for site in DEMO.own_sites:
        figures = _market(site, LAST_DAY, 90)
        lines = complete_lines(figures, compared_domains(figures, [site], DEMO.competitors))
        tied = lines.groupby("day")["visibility"].agg(lambda day: day.round(2).value_counts().max() >= 3)
        assert len(tied) == 90 and tied.mean() <= 0.2, (site, tied.mean())
        for competitor in DEMO.competitors:  # in the site's top 10s on most days, not a line at 0
            ranking = lines.loc[lines["domain"] == competitor, "visibility"] > 0
            assert ranking.mean() >= 0.5, (site, competitor)
