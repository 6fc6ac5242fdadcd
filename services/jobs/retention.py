"""``python -m store prune`` and the daily job's last step: thin every account's top 10s older than the
retention setting to one day a week (``store.retention``), with a line per day removed."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from analysis.wording import counted, say_day
from client.settings import SECRETS_FILES
from store.history import HistoryStore
from store.retention import ENV_VAR, PrunePlan, daily_from, keep_daily_days

OFF = f"Retention is off ([history] keep_daily_days and {ENV_VAR} are not set): every day's top 10s are kept."


@dataclass(frozen=True)
class PruneOutcome:
    """What a prune did (or, dry, would do), and its summary line."""

    plan: PrunePlan
    dry_run: bool

    @property
    def summary(self) -> str:
        rows = counted(self.plan.rows, "top-10 row")
        days = counted(len(self.plan.days), "account day")
        before = say_day(self.plan.daily_from)
        if not self.plan.days:
            return f"Nothing to prune: before {before} the top 10s are already kept one day a week."
        if self.dry_run:
            return f"Would remove {rows} ({days}) before {before}, keeping one day a week; nothing removed."
        return f"Removed {rows} ({days}) before {before}, keeping one day a week."


def prune_history(
    store: HistoryStore,
    today: date,
    *,
    dry_run: bool = False,
    progress: Callable[[str], None] = lambda _line: None,
    environ: Mapping[str, str] = os.environ,
    secrets_files: tuple[Path, ...] = SECRETS_FILES,
) -> PruneOutcome | None:
    """Thin the top 10s as the setting asks; None when retention is off. RetentionSettingError when the
    setting is unusable (the words say why)."""
    days = keep_daily_days(environ, secrets_files)
    if days is None:
        return None
    first_daily = daily_from(today, days)
    kept = counted(days, "day")
    progress(f"Keeping top 10s daily from {say_day(first_daily)} ({kept}), one day a week before")
    plan = store.retention.prune(first_daily, dry_run=dry_run, progress=progress)
    return PruneOutcome(plan, dry_run)
