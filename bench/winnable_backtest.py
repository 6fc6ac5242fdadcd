"""When a keyword becomes winnable: the projected month against what happened, on generated histories
whose true crossing is known and on the sandbox's demo history with its last 90 days hidden.

(a) Generated: ``CASES`` site/top-10 pairs (seeded RNG): the site's DR a straight line gaining 0.3 to
2 DR a month, rounded to whole numbers as the service gives it; the top 10's median a line from −0.3
to +0.6 DR a month, 3 to 20 DR above the site; day-to-day noise of three sizes, half of it independent
from day to day and half persistent (each day 90 % of the day before's deviation: how a DR that moves
in steps looks). Daily readings for 120 or 240 days are fitted (``analysis.opportunities.project``);
the truth is where the two true lines cross, in months after the last fitted day. Figures: for the
cases given a month, the median absolute error in months and how often the true month fell inside the
stated band, against the band's nominal level (``LEVEL``); how often a month was stated at all when
the truth was a crossing within two years; and how often "not at the current pace" was said of a
pair that does cross within two years (it should be rare), and a month of a pair that never does.

(b) Demo: the demo key's history as the app seeds it (``DEMO_DAYS`` days ending ``TODAY``), read back
through the store; for every keyword watched for each own site and both targets (the top 10's median
and lowest DR, the site's own result left out), the projection from the history up to 90 days before
the end, against the hidden 90 days read as the fit reads them (weekly medians): reached by the end
of them or not, and where the site's weekly DR passed the top 10's, the month it did.

Targets: on generated histories with independent noise, band coverage within 10 points of the nominal
90 % and a median error of at most 2 months; with persistent noise the coverage is reported, not held
(its nominal level assumes independent weeks). On the demo history: every "within reach" or month
stated agrees with the hidden 90 days on whether the crossing came within them (reported).

    .venv/bin/python -m bench.winnable_backtest [--cases 600]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.opportunities import project, site_dr_series, top10_dr_series
from analysis.opportunities.weeks import weekly
from analysis.opportunities.winnable import HORIZON_MONTHS, LEVEL, MONTH_DAYS, Projection, Target
from bench.harness import Figures
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from rigs.processes import DEMO_KEY
from store import HistoryStore
from store.watchlist import own_sites

CASES = 600
SEED = 20261128
TODAY = date(2026, 11, 26)
HIDDEN_DAYS = 90
START = date(2025, 1, 1)
#: The day-to-day noise sizes (DR points): the site's (before rounding) and the top 10's median.
NOISE = ((0.5, 1.0), (1.0, 2.0), (2.0, 4.0))
PERSISTENCE = 0.9
#: Each keyword is projected against its top 10's median DR and against its lowest (a first foothold).
TARGETS: tuple[tuple[Target, str], ...] = (("median", "median_dr"), ("lowest", "min_dr"))


@dataclass(frozen=True)
class Case:
    projection: Projection
    truth: float | None  # months to the true crossing after the last fitted day; None: never
    persistent: bool


def _noise(rng: np.random.Generator, days: int, size: float, persistent: bool) -> np.ndarray:
    if not persistent:
        return rng.normal(0.0, size, days)
    shocks = rng.normal(0.0, size * np.sqrt(1 - PERSISTENCE**2), days)  # the same spread overall
    out = np.empty(days)
    out[0] = rng.normal(0.0, size)
    for day in range(1, days):
        out[day] = PERSISTENCE * out[day - 1] + shocks[day]
    return out


def generated(count: int) -> Iterator[Case]:
    rng = np.random.default_rng(SEED)
    for n in range(count):
        days = (120, 240)[n % 2]
        site_noise, top_noise = NOISE[(n // 2) % len(NOISE)]
        persistent = (n // 6) % 2 == 1
        site_pace = rng.uniform(0.3, 2.0) / MONTH_DAYS
        top_pace = rng.uniform(-0.3, 0.6) / MONTH_DAYS
        site_start = rng.uniform(10, 50)
        top_start = site_start + rng.uniform(3, 20)
        t = np.arange(days)
        index = pd.date_range(START, periods=days)
        site = pd.Series(
            np.round(site_start + site_pace * t + _noise(rng, days, site_noise, persistent)), index
        )
        top10 = pd.Series(top_start + top_pace * t + _noise(rng, days, top_noise, persistent), index)
        last = days - 1
        gap_now = (top_start + top_pace * last) - (site_start + site_pace * last)
        gaining = site_pace - top_pace
        truth = gap_now / gaining / MONTH_DAYS if gaining > 0 else None
        yield Case(project(site, top10), truth, persistent)


def _inside(projection: Projection, truth: float) -> bool:
    return projection.band is not None and projection.band[0] <= truth <= projection.band[1]


def report_generated(figures: Figures, cases: list[Case]) -> None:
    for persistent, kind in ((False, "independent"), (True, "persistent")):
        part = [case for case in cases if case.persistent == persistent]
        within = [case for case in part if case.truth is not None and 0 < case.truth <= HORIZON_MONTHS]
        stated = [case for case in within if case.projection.state == "in_months"]
        pairs = [
            (case.projection, case.truth)
            for case in stated
            if case.projection.months is not None and case.truth is not None
        ]
        errors = [
            abs(projection.months - truth) for projection, truth in pairs if projection.months is not None
        ]
        held = sum(_inside(projection, truth) for projection, truth in pairs)
        coverage = 100 * held / len(stated) if stated else float("nan")
        median = float(np.median(errors)) if errors else float("nan")
        print(f"generated, {kind} noise: {len(part)} cases, {len(within)} cross within two years")
        figures.show(f"generated_{kind}_month_stated", 100 * len(stated) / max(len(within), 1), "%")
        figures.show(f"generated_{kind}_median_abs_error", median, "months")
        figures.show(f"generated_{kind}_band_coverage", coverage, f"% (nominal {LEVEL:.0%})")
        never = [case for case in part if case.truth is None]
        wrongly_never = sum(
            case.projection.state == "not_at_this_pace" and case.projection.reason != "beyond_horizon"
            for case in within
        )
        month_of_never = sum(case.projection.state == "in_months" for case in never)
        early = sum(
            case.projection.state == "within_reach" and case.truth is not None and case.truth > 3
            for case in within
        )
        figures.show(
            f"generated_{kind}_within_reach_of_a_crossing_over_3_months_ahead", 100 * early / len(within), "%"
        )
        figures.show(
            f"generated_{kind}_not_at_this_pace_of_a_crossing", 100 * wrongly_never / len(within), "%"
        )
        figures.show(
            f"generated_{kind}_month_of_a_pair_never_crossing", 100 * month_of_never / max(len(never), 1), "%"
        )
        states = pd.Series([case.projection.state for case in within]).value_counts().to_dict()
        print(f"  states of the crossings within two years: {states}")
        if not persistent:
            ok = abs(coverage - 100 * LEVEL) <= 10 and median <= 2
            figures.target(
                "generated_independent_band_and_error",
                ok,
                f"coverage {coverage:.0f} % vs {LEVEL:.0%} ± 10 points; median error {median:.1f} ≤ 2 months",
            )


def _hidden_crossing(site: pd.Series, target: pd.Series, cutoff: pd.Timestamp) -> float | None:
    """Months after ``cutoff`` at which the site's weekly DR first reached the top 10's in the hidden
    days (None: not by their end)."""
    later_site = weekly(site[site.index > cutoff])
    later_top = weekly(target[target.index > cutoff])
    both = pd.concat([later_site.rename("site"), later_top.rename("top")], axis=1).dropna()
    reached = both.index[both["site"] >= both["top"]]
    return None if not len(reached) else (float(reached[0]) + 1) / MONTH_DAYS


def demo_cases(figures: Figures) -> None:
    account = key_fingerprint(DEMO_KEY)
    rows: list[str] = []
    agree = total = held = stated = 0
    errors: list[float] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        HistoryStore.open(f"sqlite:///{Path(folder) / 'h.sqlite3'}") as store,
    ):
        seed_demo_history(store, account, DEMO_KEY, TODAY)
        entries = store.watchlist.entries(account)
        cutoff = pd.Timestamp(TODAY - timedelta(days=HIDDEN_DAYS))
        for site in own_sites(entries):
            site_dr = site_dr_series(store.queries.domain_history(account, [site]), site)
            serps = store.queries.serp_history(account, site)
            for keyword in sorted(
                {item.subject for item in entries if item.kind == "keyword" and item.site == site}
            ):
                top10 = top10_dr_series(serps, keyword, site=site)
                for target, column in TARGETS:
                    series = top10[column]
                    projection = project(
                        site_dr[site_dr.index <= cutoff], series[series.index <= cutoff], target
                    )
                    truth = _hidden_crossing(site_dr, series, cutoff)
                    said_by_end = projection.state == "within_reach" or (
                        projection.state == "in_months"
                        and projection.months is not None
                        and projection.months <= HIDDEN_DAYS / MONTH_DAYS
                    )
                    if projection.state in ("within_reach", "in_months", "not_at_this_pace"):
                        total += 1
                        agree += said_by_end == (truth is not None)
                    if (
                        projection.state == "in_months"
                        and truth is not None
                        and projection.months is not None
                    ):
                        stated += 1
                        errors.append(abs(projection.months - truth))
                        held += _inside(projection, truth)
                    hidden = "not reached" if truth is None else f"reached after {truth:.1f} months"
                    said = " ".join(
                        part
                        for part in (
                            projection.state,
                            projection.reason,
                            f"{projection.months:.1f} months" if projection.months else "",
                        )
                        if part
                    )
                    rows.append(f"  {site} | {keyword} | {target}: said {said}; hidden 90 days: {hidden}")
    print("demo history, last 90 days hidden:")
    print("\n".join(rows))
    figures.show("demo_cases_with_a_statement", total, "keyword-targets")
    figures.show("demo_agree_reached_by_end", 100 * agree / max(total, 1), "%")
    figures.show("demo_months_compared", stated, "crossings")
    if errors:
        figures.show("demo_median_abs_error", float(np.median(errors)), "months")
        figures.show("demo_band_coverage", 100 * held / stated, f"% (nominal {LEVEL:.0%})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=CASES)
    args = parser.parse_args()
    figures = Figures()
    report_generated(figures, list(generated(args.cases)))
    demo_cases(figures)
    return figures.exit_code()


if __name__ == "__main__":
    sys.exit(main())
