"""Trust Map churn: what changed in a site's sample of referring domains between two snapshots (each a
frame of ``LINK_COLUMNS``), for the History page's churn tab, the report's link tables and the link
alerts. Pure. A domain missing from a later map some rows of which could not be used is unknown, never
counted as gone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import pandas as pd

from analysis.figures.history_frames import empty
from analysis.wording import counted, screen_day
from schema.history import LINK_COLUMNS, SPAM_RISK_FROM

#: How a churn row says what changed.
APPEARED = "appeared"
DISAPPEARED = "disappeared"
NEW_SPAM_RISK = "new spam risk"
LIVE_TO_LOST = "live → lost"


@dataclass(frozen=True)
class Churn:
    """What changed in a site's Trust Map sample between two snapshots (each a frame of LINK_COLUMNS).

    ``unknown``: referring domains missing from the later sample on a day some of its rows could not be
    used; any of them may be among those rows, so none is counted as disappeared."""

    appeared: pd.DataFrame
    disappeared: pd.DataFrame
    new_spam_risky: pd.DataFrame
    live_to_lost: pd.DataFrame
    unknown: pd.DataFrame = field(default_factory=lambda: empty(LINK_COLUMNS))

    def counts(self) -> dict[str, int]:
        return {
            APPEARED: len(self.appeared),
            DISAPPEARED: len(self.disappeared),
            NEW_SPAM_RISK: len(self.new_spam_risky),
            LIVE_TO_LOST: len(self.live_to_lost),
        }


def _by_domain(links: pd.DataFrame) -> pd.DataFrame:
    """A sample's links indexed by referring domain, each domain once."""
    return links.drop_duplicates("referring_domain").set_index(links["referring_domain"].rename(None))


def _tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows by referring domain, in LINK_COLUMNS' order."""
    out = frame.reset_index(drop=True).sort_values("referring_domain", kind="stable")
    return out.reset_index(drop=True).loc[:, list(LINK_COLUMNS)]


def _risky(links: pd.DataFrame) -> pd.Series:
    return pd.to_numeric(links["spam_score"], errors="coerce").ge(SPAM_RISK_FROM).fillna(False).astype(bool)


def skipped_on(totals: pd.DataFrame, day: date) -> int:
    """How many rows of the day's Trust Map could not be used, from a ``trust_map_totals`` frame (0 when
    the frame has no such day or no count)."""
    if totals.empty or "skipped" not in totals:
        return 0
    on_day = totals.loc[pd.to_datetime(totals["day"]).dt.date == day, "skipped"]
    values = pd.to_numeric(on_day, errors="coerce").dropna()
    return int(values.iloc[-1]) if not values.empty else 0


def churn(before: pd.DataFrame, after: pd.DataFrame, skipped_after: int = 0) -> Churn:
    """Referring domains that appeared or disappeared between two samples, those that are spam-risky
    now and were not (new, or their score rose past the line), and links that went from live to lost.
    When ``skipped_after`` rows of the later map could not be used, a domain missing from it is
    ``unknown``, not disappeared: it may be one of them."""
    before, after = _by_domain(before), _by_domain(after)
    appeared = after[~after.index.isin(before.index)]
    disappeared = before[~before.index.isin(after.index)]
    risky_before = set(before.index[_risky(before)])
    now_risky = after[_risky(after)]
    new_risky = now_risky[~now_risky.index.isin(risky_before)]
    both = after.index.intersection(before.index)
    lost = after.loc[both][
        (before.loc[both, "status"].astype(str) == "live").to_numpy()
        & (after.loc[both, "status"].astype(str) == "lost").to_numpy()
    ]

    if skipped_after > 0:
        return Churn(
            _tidy(appeared), _tidy(disappeared.iloc[0:0]), _tidy(new_risky), _tidy(lost), _tidy(disappeared)
        )
    return Churn(_tidy(appeared), _tidy(disappeared), _tidy(new_risky), _tidy(lost))


@dataclass(frozen=True)
class LiveChange:
    """Which referring domains started or stopped linking live between two samples."""

    #: A live link in the later sample and none in the earlier (not in it, or not live): as the later has it.
    gained: pd.DataFrame
    #: A live link in the earlier sample and none in the later: as the later has it (lost, say), or as the
    #: earlier had it with the status ``GONE_FROM_SAMPLE`` when the later sample no longer lists it.
    lost: pd.DataFrame
    #: Live in the earlier sample and missing from a later one some rows of which could not be used: it
    #: may be one of them, so it is not counted as lost.
    unknown: pd.DataFrame = field(default_factory=lambda: empty(LINK_COLUMNS))


#: The status of a referring domain the later Trust Map no longer samples.
GONE_FROM_SAMPLE = "gone from the sample"


def live_change(before: pd.DataFrame, after: pd.DataFrame, skipped_after: int = 0) -> LiveChange:
    """Referring domains gained and lost between two samples (each a frame of LINK_COLUMNS), judged by
    their links being live, so every row's status agrees with its side: a gained one is live now, a lost
    one is not (a domain joining the sample with a lost link is no gain). When ``skipped_after`` rows of
    the later map could not be used, a live domain missing from it is ``unknown``, not lost, as in
    ``churn``."""
    before, after = _by_domain(before), _by_domain(after)
    live_before = set(before.index[before["status"].astype(str) == "live"])
    live_after = set(after.index[after["status"].astype(str) == "live"])
    gained = after[after.index.isin(live_after - live_before)]
    stopped = live_before - live_after
    gone = before[before.index.isin(stopped - set(after.index))].assign(status=GONE_FROM_SAMPLE)
    lost = pd.concat([after[after.index.isin(stopped)], gone.iloc[0:0] if skipped_after > 0 else gone])

    if skipped_after > 0:
        return LiveChange(_tidy(gained), _tidy(lost), _tidy(gone.assign(status=before["status"])))
    return LiveChange(_tidy(gained), _tidy(lost))


def unknown_words(result: Churn | LiveChange, day: date, skipped: int) -> str:
    """Why the domains missing from ``day``'s sample are not counted as gone ("" when none is)."""
    missing = len(result.unknown)
    if not missing:
        return ""
    one = missing == 1
    return (
        f"{counted(missing, 'referring domain')} missing from the sample of {screen_day(day)} "
        f"{'is' if one else 'are'} not counted as gone: {counted(skipped, 'row')} of that day's Trust Map "
        f"could not be used, and {'it' if one else 'they'} may be among them."
    )


def churn_table(result: Churn) -> pd.DataFrame:
    """The churn as one table: a ``change`` column saying what happened, then the link's columns
    (as the later snapshot has them; as the earlier one had them for a domain that disappeared)."""
    parts = [
        frame.assign(change=label)
        for label, frame in (
            (APPEARED, result.appeared),
            (DISAPPEARED, result.disappeared),
            (NEW_SPAM_RISK, result.new_spam_risky),
            (LIVE_TO_LOST, result.live_to_lost),
        )
        if not frame.empty
    ]
    if not parts:
        return empty(("change", *LINK_COLUMNS))
    return pd.concat(parts, ignore_index=True).loc[:, ["change", *LINK_COLUMNS]]


# --- keyword positions -----------------------------------------------------------------------------
