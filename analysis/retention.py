"""What a page, a report or a command says when its top-10 figures reach days thinned to one a week
(``store.retention``): one sentence, the same everywhere."""

from __future__ import annotations

from datetime import date

from analysis.wording import counted, say_day


def shows_weekly_points(weekly_before: date | None, since: date | None) -> bool:
    """Whether a period starting ``since`` (None: all the history) reaches days kept weekly."""
    return weekly_before is not None and (since is None or since < weekly_before)


def weekly_note(weekly_before: date, keep_daily_days: int) -> str:
    """ "Before 3 Mar 2026 one day a week is kept …": a weekly day's figures are still that day's."""
    return (
        f"Before {say_day(weekly_before)} one day a week of the top 10s is kept (history kept daily for "
        f"{counted(keep_daily_days, 'day')}): the top-10 figures there are weekly points, each the "
        "figure of its own day."
    )
