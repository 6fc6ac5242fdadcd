"""``analysis.opportunities.outlook``: every watched keyword's projections from the history's frames, and
the table a page shows of them: the DRs as last recorded, a sentence and dates per target, the nearest
first."""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd

from analysis.opportunities import OUTLOOK_COLUMNS, outlook_table, outlooks
from analysis.opportunities.series import top10_dr_by_keyword, top10_dr_series
from analysis.opportunities.weeks import weekly
from analysis.opportunities.winnable import MONTH_DAYS

START = date(2026, 1, 1)
DAYS = 120
SITE = "mine.com"


def _domains(start: float, per_month: float) -> pd.DataFrame:
    days = pd.date_range(START, periods=DAYS)
    return pd.DataFrame({"domain": SITE, "day": days, "dr": start + per_month / MONTH_DAYS * np.arange(DAYS)})


def _serps(keyword: str, drs: dict[str, tuple[float, float]], days: int = DAYS) -> pd.DataFrame:
    """``keyword``'s top 10 each day: each domain at its (start, per month) DR; ``SITE`` at position 1."""
    rows = []
    for offset, day in enumerate(pd.date_range(START, periods=days)):
        rows.append({"day": day, "position": 1, "domain": SITE, "dr": 99.0})
        for position, (domain, (start, per_month)) in enumerate(drs.items(), start=2):
            dr = start + per_month / MONTH_DAYS * offset
            rows.append({"day": day, "position": position, "domain": domain, "dr": dr})
    return pd.DataFrame(rows).assign(site=SITE, keyword=keyword)


def test_the_table_puts_within_reach_first_then_the_nearest_month_and_says_each_in_words() -> None:
    domains = _domains(40, 1.0)
    serps = pd.concat(
        [
            _serps("hard", {"a.com": (80, 2.0), "b.com": (70, 2.0)}),
            _serps("later", {"a.com": (52, 0.0), "b.com": (50, 0.0)}),
            _serps("easy", {"a.com": (30, 0.0), "b.com": (20, 0.0)}),
            _serps("soon", {"a.com": (46, 0.0), "b.com": (44, 0.0)}),
            _serps("new", {"a.com": (40, 0.0)}, days=20),
        ]
    )
    pairs = [(SITE, k) for k in ("hard", "later", "easy", "soon", "new")]
    table = outlook_table(outlooks(domains, serps, pairs))
    assert list(table.columns) == OUTLOOK_COLUMNS
    assert table["keyword"].tolist() == ["easy", "soon", "later", "hard", "new"]
    rows = table.set_index("keyword")
    assert rows.loc["easy", "median_when"] == "Within reach now"
    assert rows.loc["soon", "median_when"].startswith("In about")
    assert rows.loc["soon", "median_dates"].startswith("around ")
    assert rows.loc["hard", "median_when"].startswith("Not at the current pace — the top 10 is hardening")
    assert rows.loc["new", "median_when"] == "Not enough history yet (needs at least 8 weeks; 2 recorded)"
    # The DRs as last recorded, the top 10's without the site's own result (its 99 at position 1).
    assert rows.loc["later", "median_dr"] == 51 and rows.loc["later", "min_dr"] == 50
    assert np.isclose(rows.loc["later", "site_dr"], 40 + (DAYS - 1) / MONTH_DAYS)
    assert not any("_" in words for words in table[["median_when", "lowest_when"]].to_numpy().ravel())


def test_a_site_without_a_recorded_dr_has_too_little_history_not_a_zero() -> None:
    empty = _domains(40, 1.0).iloc[0:0]
    table = outlook_table(outlooks(empty, _serps("k", {"a.com": (50, 0.0)}), [(SITE, "k")]))
    assert pd.isna(table.loc[0, "site_dr"])
    assert table.loc[0, "median_when"] == "Not enough history yet (needs at least 8 weeks; 0 recorded)"


def test_no_pairs_give_an_empty_table_with_its_columns() -> None:
    table = outlook_table([])
    assert table.empty and list(table.columns) == OUTLOOK_COLUMNS


def test_every_keywords_top_10_at_once_is_each_keywords_own() -> None:
    serps = pd.concat(
        [
            _serps("a", {"x.com": (50, 1.0), "y.com": (30, 0.0)}, days=30),
            _serps("b", {"x.com": (60, 0.0), "z.com": (20, 2.0), "w.com": (40, 0.0)}, days=10),
        ]
    )
    together = top10_dr_by_keyword(serps, SITE)
    assert set(together) == {"a", "b"}
    for keyword, frame in together.items():
        pd.testing.assert_frame_equal(frame, top10_dr_series(serps, keyword, site=SITE))


def test_weekly_points_are_each_weeks_median_on_its_middle_day_counted_back_from_the_last() -> None:
    # Days 0–9 with several readings on day 9: weeks counted back from day 9 are days 3–9 and 0–2.
    days = [*pd.date_range(START, periods=10), pd.Timestamp(START) + pd.Timedelta(days=9, hours=6)]
    values = pd.Series([1.0, 3.0, 2.0, 10.0, 10.0, 12.0, 14.0, None, 11.0, 20.0, 30.0], index=days)
    points = weekly(values)
    assert points.index.tolist() == [1.0, 6.0]  # the middle reading day of each week
    assert points.tolist() == [2.0, 12.0]  # the median of 1, 3, 2; of 10, 10, 12, 14, 11, 20, 30
