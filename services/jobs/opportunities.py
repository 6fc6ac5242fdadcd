"""``python -m store opportunities``: one own site's opportunities list, for scripts and spreadsheets.

The same list as the Opportunities page (``services.opportunities.gather_opportunities``) under the
team's CTR curve: first the history and two calls (keyword suggestions, tracked keywords), then the
number of keyword reports the keywords without a recorded top 10 will cost is said on stderr before any
is spent (at most ``--max-calls``), then they are read at the service's rate limit with a progress line
each. Every keyword is a row (``services.opportunities.COLUMNS``: the score and its parts, where the
top 10 came from, the failure in words when it could not be read, and for a watched keyword when it
becomes winnable against the top 10's median and lowest DR: state, words, month, band); ``--csv``
writes them all as CSV (formula-defused), the default a readable table of the main ones.

Exit codes: 0 everything asked was read; 1 a source or some keyword could not be read (each named on
stderr, its row kept without a score); 2 the site or the CTR curve cannot be used; 3 the database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

import pandas as pd

from analysis.spreadsheet import csv_text
from analysis.wording import counted
from client import ApiClient
from client.bulk import Pacer
from services.jobs.exit_codes import EXIT_FAILED, EXIT_OK
from services.opportunities import COLUMNS, Opportunities, calls_needed, gather_opportunities, read_candidates
from store.history import HistoryStore

#: The readable table's columns (``--csv`` has every one of ``COLUMNS``).
TABLE_COLUMNS = (
    "keyword",
    "position",
    "volume",
    "volume_source",
    "site_dr",
    "median_dr",
    "min_dr",
    "gap",
    "clicks_gained",
    "difficulty",
    "score",
    "top10_from",
    "median_words",
    "median_band",
    "problem",
)
#: The calls a run may spend on keyword reports unless told otherwise.
DEFAULT_MAX_CALLS = 25


def write_list(scored: pd.DataFrame, as_csv: bool, out: TextIO) -> None:
    """Every column as CSV (two decimals), or the main ones aligned for reading."""
    if as_csv:
        out.write(csv_text(scored.loc[:, list(COLUMNS)], float_format="%.2f"))
        return
    table = scored.loc[:, list(TABLE_COLUMNS)].astype(object).where(scored.notna(), "")
    out.write(table.to_string(index=False, float_format=lambda value: f"{value:.1f}") + "\n")


def _repeats(sent: int, asked: int) -> str:
    """Why more requests were sent than keywords asked: a 429 or a brief outage is asked again."""
    if sent <= asked:
        return ""
    return f" for {counted(asked, 'keyword')} ({sent - asked} asked again after the rate limit or an outage)"


def run(
    store: HistoryStore,
    client: ApiClient,
    account: str,
    site: str,
    *,
    ctr: tuple[float, ...],
    target: int,
    max_calls: int,
    as_csv: bool,
    out: TextIO,
    say: Callable[[str], None],
    pacer: Pacer | None = None,
) -> int:
    """The command once its inputs are usable: the list on ``out``, progress and failures on ``say``."""
    say(f"Reading the keywords of {site}: suggestions and tracked keywords (2 calls) and the history")
    candidates = read_candidates(store, client, account, site)
    needed, spend = len(candidates.unread()), calls_needed(candidates, max_calls)
    limit = f"; {needed - spend} left unread by --max-calls {max_calls}" if spend < needed else ""
    say(
        f"{len(candidates.rows)} keywords; {needed} without a recorded top 10: "
        f"{counted(spend, 'keyword-report call')}{limit}"
    )
    found: Opportunities = gather_opportunities(
        store,
        client,
        account,
        site,
        ctr=ctr,
        target=target,
        max_calls=max_calls,
        progress=say,
        candidates=candidates,
        pacer=pacer,
    )
    for line in found.problem_lines():
        say(f"failed: {line}")
    write_list(found.scored, as_csv, out)
    scored = int(found.scored["score"].notna().sum())
    say(
        f"{len(found.scored)} keywords, {scored} scored for position {target}; "
        f"{counted(found.calls, 'keyword-report request')} sent{_repeats(found.calls, spend)}, "
        f"{len(found.problem_lines())} not read"
    )
    return EXIT_OK if found.ok else EXIT_FAILED
