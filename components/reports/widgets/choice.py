"""Which report: one of your sites (from the history, no API call) and a month."""

from __future__ import annotations

from datetime import date

import streamlit as st

from components.core.history.source import HistorySource
from store.reports.period import Period, last_month

#: How many months back the month picker offers (the history may hold more; the command takes any).
MONTHS_OFFERED = 24


def recorded_sites(source: HistorySource) -> list[str]:
    """Your own sites as the history's watchlist keeps them."""
    return sorted(
        subject
        for kind, subject, origin, _site in source.watch_items()
        if kind == "domain" and origin == "own"
    )


def months_until(today: date, count: int = MONTHS_OFFERED) -> list[Period]:
    """This month so far, then the whole months before it, newest first."""
    months = [Period(today.replace(day=1), today)]
    month = last_month(today)
    for _ in range(count):
        months.append(month)
        month = last_month(month.start)
    return months


def report_choice(sites: list[str], today: date) -> tuple[str, Period]:
    """The site and month chosen (last month by default: the one a report is usually about)."""
    months = months_until(today)
    left, right = st.columns([2, 1])
    site = left.selectbox("Site", sites, key="report_site")
    period = right.selectbox(
        "Month",
        months,
        index=1,
        format_func=lambda p: f"{p.words} (so far)" if p.end == today and not p.is_month else p.words,
        key="report_month",
    )
    return str(site), period
