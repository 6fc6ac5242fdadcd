"""The shortcut that keeps Alembic out of an app server started on a migrated database.

``store.migrations.upgrade`` compares a database's revision with ``HEAD_REVISION`` before it imports
Alembic: the constant must name the newest migration, and a migrated database must open without
Alembic being loaded (each replica holds about 7 MiB less).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from store.migrations import HEAD_REVISION, head_revision

ROOT = Path(__file__).resolve().parents[2]


def test_head_revision_constant_names_the_newest_migration() -> None:
    assert head_revision() == HEAD_REVISION


def test_a_migrated_database_opens_without_importing_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    opens = (
        "import sys; from store import HistoryStore; "
        "HistoryStore.open(sys.argv[1]).watchlist.entries('acct'); "
        "print('alembic' in sys.modules)"
    )
    first = subprocess.run(
        [sys.executable, "-c", opens, url], cwd=ROOT, capture_output=True, text=True, check=True
    )
    again = subprocess.run(
        [sys.executable, "-c", opens, url], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert first.stdout.strip() == "True"  # a new database is migrated with Alembic
    assert again.stdout.strip() == "False"
