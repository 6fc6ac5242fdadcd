"""Where the history database lives: the environment, then ``.streamlit/secrets.toml``, then a file.

``DASHBOARD_DATABASE_URL`` wins over ``url`` under ``[connections.history]`` in the secrets files
(the same files, in the same order, as the API settings in ``client.settings``). Without either, the
history is an SQLite file in the git-ignored ``data/`` folder beside ``app.py``, so a fresh clone
keeps history with no set-up. ``display_url`` (``client.safe_urls``) is the only form of a URL that
may be shown or logged: every password, in the user part or the query, is replaced by ``***``.
``secrets_tables`` and ``connection_url`` are how every setting outside the API's is read from the
secrets files (the history, the shared cache, the alerts).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from client.safe_urls import display_url as display_url  # re-exported: store shows URLs through it
from client.settings import SECRETS_FILES

ENV_VAR = "DASHBOARD_DATABASE_URL"
#: The folder of app.py: the default database file sits in its data/ folder.
APP_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SQLITE_PATH = APP_ROOT / "data" / "history.sqlite3"
#: The psycopg 3 driver; a plain postgresql:// URL would ask SQLAlchemy for psycopg2, which is not installed.
POSTGRES_DRIVER = "postgresql+psycopg"


def default_url() -> str:
    return f"sqlite:///{DEFAULT_SQLITE_PATH}"


def secrets_tables(files: tuple[Path, ...] = SECRETS_FILES) -> Iterator[dict[str, Any]]:
    """The content of each secrets file that can be read, in order (a later file wins over an earlier
    one); a missing, unreadable or malformed file is passed over, as Streamlit does."""
    for path in files:
        try:
            yield tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue


def connection_url(name: str, files: tuple[Path, ...] = SECRETS_FILES) -> str | None:
    """``url`` under ``[connections.<name>]`` of the last secrets file that has one (the project's wins)."""
    found: str | None = None
    for content in secrets_tables(files):
        section = content.get("connections", {}).get(name, {})
        url = section.get("url") if isinstance(section, dict) else None
        if isinstance(url, str) and url.strip():
            found = url.strip()
    return found


def database_url(
    environ: Mapping[str, str] = os.environ, secrets_files: tuple[Path, ...] = SECRETS_FILES
) -> str:
    """The history database URL in force (normalised, see ``normalise_url``)."""
    configured = (environ.get(ENV_VAR) or "").strip() or connection_url("history", secrets_files)
    return normalise_url(configured) if configured else default_url()


def normalise_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` mean PostgreSQL through psycopg 3; anything else is kept."""
    text = url.strip()
    for prefix in ("postgres://", "postgresql://"):
        if text.startswith(prefix):
            return POSTGRES_DRIVER + "://" + text.removeprefix(prefix)
    return text


def parse_url(url: str) -> URL | None:
    try:
        return make_url(url)
    except (ArgumentError, ValueError):
        return None


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL (None for other databases and for in-memory SQLite)."""
    parsed = parse_url(url)
    if parsed is None or parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)
