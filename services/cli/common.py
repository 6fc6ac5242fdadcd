"""What every command shares: its arguments' types, where its lines go, why it cannot start, the history
database and the API settings (read exactly as the daily snapshot reads them, never shown)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from pydantic import ValidationError

from client.settings import Settings, key_fingerprint
from store.config import database_url, normalise_url
from store.history import HistoryStore

if TYPE_CHECKING:
    from services.alerts.config import AlertConfig

URL_HELP = "the history database (default: DASHBOARD_DATABASE_URL, secrets, else data/history.sqlite3)"


def day_argument(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day written YYYY-MM-DD") from None


def days_argument(text: str) -> int:
    try:
        days = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of days") from None
    if not 1 <= days <= 366:
        raise argparse.ArgumentTypeError("the number of days is from 1 to 366")
    return days


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def tell(line: str) -> None:
    print(line, flush=True)


class CannotStart(Exception):
    """A command cannot start (exit code 2); the message says why in plain words, never a secret."""


def open_store(url_argument: str | None) -> HistoryStore:
    """The history database; ``StoreUnavailable`` (exit code 3, said by ``main``) when it cannot be used."""
    return HistoryStore.open(normalise_url(url_argument) if url_argument else database_url())


def alert_config() -> AlertConfig | str:
    """The alert settings in force, or why they cannot be used (plain words, never a secret)."""
    from services.alerts.config import AlertConfig, AlertConfigError

    try:
        return AlertConfig.load()
    except AlertConfigError as exc:
        return f"The alert settings cannot be used: {exc}"


def usable_alert_config() -> AlertConfig:
    """The alert settings in force; ``CannotStart`` when they cannot be used."""
    config = alert_config()
    if isinstance(config, str):
        raise CannotStart(config)
    return config


def read_settings() -> Settings:
    """The API settings; ``CannotStart`` when they cannot be read."""
    try:
        return Settings()
    except ValidationError as exc:
        fields = ", ".join(str(error["loc"][0]) for error in exc.errors())
        raise CannotStart(
            f"The API settings could not be read ({fields}): "
            "check VERIFIEDDR_API_BASE and VERIFIEDDR_TIMEOUT."
        ) from None


def api_settings() -> tuple[Settings, str]:
    """The API settings and key; ``CannotStart`` when they cannot be read or there is no key."""
    settings = read_settings()
    if settings.api_key is None:
        raise CannotStart(
            "No API key: set VERIFIEDDR_API_KEY (or api_key in .streamlit/secrets.toml) to the key whose "
            "watchlist should be recorded."
        )
    return settings, settings.api_key.get_secret_value()


def team_account() -> str | None:
    """The deployment's own account: the fingerprint of the key in its environment or secrets, read
    exactly as the snapshot reads it (never the key itself); None when no key is configured. The team's
    channels (webhook, digest) carry this account only."""
    key = read_settings().api_key
    return key_fingerprint(key.get_secret_value()) if key is not None else None


@dataclass(frozen=True)
class Lines:
    """Where a command's lines go: progress, failures and waits to ``say`` (stderr), its outcome lines
    to ``out`` (stdout, which cron mail and scripts read). A test running jobs at once gives each its own."""

    say: Callable[[str], None] = say
    out: Callable[[str], None] = tell


#: A command's lines on the process's own streams.
STANDARD_LINES = Lines()
