"""``python -m store visibility``: the market figures per day and domain, for scripts and spreadsheets.

The same numbers as the Market page (``services.market.market_as_shown``), from the recorded top 10s only:
no API call.
One row per day and domain with the columns ``day,group,domain,visibility,share_of_voice`` (percent,
one decimal; ``group`` is ``--group``: a tag, ``brand``, ``non-brand``, or ``all``, every watched keyword
(of ``--site``, when given)). By default the 28
days ending on the latest day that has a top 10. Without ``--csv`` the same rows as aligned text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TextIO

import pandas as pd

from analysis.market import ALL, UnknownGroup
from analysis.spreadsheet import csv_text
from services.market import market_as_shown
from services.retention import weekly_points_note
from store.history import HistoryStore

CLI_COLUMNS = ("day", "group", "domain", "visibility", "share_of_voice")


class NothingRecorded(Exception):
    """No top 10 in the period asked for; the message says what was looked for, in plain words."""


@dataclass(frozen=True)
class Asked:
    """What the command is asked for: the site (None: every watched keyword), how many days ending on
    ``as_of`` (None: the latest day that has a top 10), and the keyword group."""

    site: str | None
    days: int
    as_of: date | None
    group: str = ALL


def visibility_rows(store: HistoryStore, account: str, ctr: tuple[float, ...], asked: Asked) -> pd.DataFrame:
    """The rows the command prints (``CLI_COLUMNS``), by day then share of voice; NothingRecorded when
    the period has no top 10 of the group, UnknownGroup for a group there is not."""
    site, days, group = asked.site, asked.days, asked.group
    last = asked.as_of or _latest_day(store, account, site)
    market = market_as_shown(
        store, account, site, since=last - timedelta(days=days - 1), until=last, ctr=ctr, group=group
    )
    if market.empty:
        whose = f"the keywords watched for {site}" if site else "the watched keywords"
        whose = whose if group == ALL else f"{whose} in the group {group!r}"
        raise NothingRecorded(
            f"No top 10 of {whose} is recorded in the {days} days ending {last.isoformat()}."
        )
    figures = market.figures
    return pd.DataFrame(
        {
            "day": figures["day"].dt.date.map(date.isoformat),
            "group": group,
            "domain": figures["domain"],
            "visibility": figures["visibility"].round(1),
            "share_of_voice": figures["share_of_voice"].round(1),
        }
    )


def _latest_day(store: HistoryStore, account: str, site: str | None) -> date:
    latest = store.queries.latest_serp_day(account, site)
    if latest is None:
        whose = f"the keywords watched for {site}" if site else "the watched keywords"
        raise NothingRecorded(
            f"No top 10 of {whose} is recorded yet: the daily snapshot records them "
            "(python -m store snapshot)."
        )
    return latest


def write_rows(rows: pd.DataFrame, as_csv: bool, out: TextIO) -> None:
    """CSV with a header line, or the same columns aligned for reading."""
    if as_csv:  # defused like every CSV of the app: a tag may start with a hyphen
        out.write(csv_text(rows.loc[:, list(CLI_COLUMNS)], float_format="%.1f"))
        return
    out.write(rows.to_string(index=False, float_format=lambda value: f"{value:.1f}") + "\n")


def run(
    store: HistoryStore,
    account: str,
    ctr: tuple[float, ...],
    asked: Asked,
    *,
    as_csv: bool,
    out: TextIO,
    say: Callable[[str], None],
    today: date | None = None,
) -> int:
    """The command: 0 with the rows printed, 2 when the period has no top 10 of the group or there is
    no such group (said on ``say``). When the period reaches days whose top 10s are kept one a week
    (retention), ``say`` tells it as the pages do, so a script's reader knows the older rows are weekly."""
    try:
        rows = visibility_rows(store, account, ctr, asked)
    except (NothingRecorded, UnknownGroup) as exc:
        say(str(exc))
        return 2
    write_rows(rows, as_csv, out)
    first_day = date.fromisoformat(str(rows["day"].min()))
    note = weekly_points_note(store, account, today or datetime.now(UTC).date(), first_day)
    if note is not None:
        say(note)
    return 0
