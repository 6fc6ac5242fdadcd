"""What reaching the target is worth, under the opportunities table: the site's visibility and share of
voice over the chosen keywords (all those shown when none is chosen) that have a recorded top 10, now
and if the site stood at the target position in each (``analysis.opportunities.worth``, the market's
one definition). History only: a keyword's top 10 is recorded once it is watched for the site."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import streamlit as st

from analysis.market import one_top10_per_keyword
from analysis.opportunities.worth import worth_of_reaching
from analysis.text import escape_md
from analysis.wording import counted
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.core.history.store import history_day

#: How far back a keyword's latest recorded top 10 may be to count.
RECENT_DAYS = 35


def worth_of_targets(
    conn: Connection,
    source: HistorySource,
    site: str,
    keywords: Sequence[str],
    target: int,
    ctr: Sequence[float],
) -> None:
    since = history_day(conn) - timedelta(days=RECENT_DAYS)
    # Each keyword's latest top 10 only, read at the database (not every row of the weeks before).
    top10s = one_top10_per_keyword(source.latest_top10s(site, tuple(sorted(set(keywords))), since))
    worth = worth_of_reaching(top10s, site, set(keywords), target, ctr)
    if worth is None:
        st.caption(
            "What reaching the target is worth shows for keywords with a recorded top 10: watch them for "
            f"{escape_md(site)} and the daily snapshot records theirs."
        )
        return
    st.markdown(
        f"**If {escape_md(site)} reached position {target}** in {counted(worth.keywords, 'watched keyword')} "
        "of these (their latest recorded top 10s):"
    )
    left, right = st.columns(2)
    gained = worth.visibility_then - worth.visibility_now
    left.metric(
        "Visibility",
        f"{worth.visibility_then:.1f} %",
        f"{gained:+.1f} points",
        help=f"Now {worth.visibility_now:.1f} %: the mean over these keywords of c(position)/c(1) × 100",
    )
    right.metric(
        "Share of voice",
        f"{worth.share_then:.1f} %",
        f"{worth.share_then - worth.share_now:+.1f} points",
        help=f"Now {worth.share_now:.1f} %: your clicks' share of all clicks in these top 10s",
    )
