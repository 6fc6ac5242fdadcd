"""The one sentence every page and report shows under a top-10 figure whose period reaches days kept
weekly (``store.retention``): the setting, the store's boundary and the words, in one call."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import date
from pathlib import Path

from analysis.retention import shows_weekly_points, weekly_note
from client.settings import SECRETS_FILES
from store.history import HistoryStore
from store.retention import RetentionSettingError, daily_from, keep_daily_days


def weekly_points_note(
    store: HistoryStore,
    account: str,
    today: date,
    since: date | None,
    *,
    environ: Mapping[str, str] = os.environ,
    secrets_files: tuple[Path, ...] = SECRETS_FILES,
) -> str | None:
    """The note for a period starting ``since`` (None: all the history) read on ``today``; None when the
    period holds only daily top 10s, when retention is off, or when its setting cannot be used (the
    ``prune`` command says why; a page does not guess)."""
    try:
        days = keep_daily_days(environ, secrets_files)
    except RetentionSettingError:
        return None
    if days is None:
        return None
    boundary = store.retention.weekly_before(account, daily_from(today, days))
    if boundary is None or not shows_weekly_points(boundary, since):
        return None
    return weekly_note(boundary, days)
