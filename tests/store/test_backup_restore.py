"""Backing up and restoring the history database, with exactly the commands docs/operations.md gives.

Each test takes the documented shell blocks out of the guide, so the guide cannot drift from what is
tested: only the example host, port and backup file name are put in for the test's own (each checked to
be in the block). It records history in a real database (an SQLite file in a folder laid out like the
checkout; a real PostgreSQL server, as the dashboard's own user), backs it up while the store is still
open and writing (an online backup), writes on after the backup, stops, restores into a fresh database
and checks that the restored history reads as it did at the backup: every table's row count, a
domain's history, a day's Trust Map and the keyword positions.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
import psycopg
import pytest
from sqlalchemy import func, select, text

from rigs.postgres import PostgresServer
from store import HistoryStore
from store.models import Base
from tests.store import samples
from tests.store.samples import ACCOUNT

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "docs" / "operations.md"
FIRST_DAY = date(2025, 1, 1)
DAYS = 21
#: The environment the blocks run in: no PGHOST, PGPORT, PGUSER… of the machine's, only what the block says.
_WITHOUT_PG_SETTINGS = {name: value for name, value in os.environ.items() if not name.startswith("PG")}


def documented_block(heading: str) -> str:
    """The first ```bash block under ``### heading`` in docs/operations.md (before the next heading)."""
    guide = OPERATIONS.read_text(encoding="utf-8")
    section = re.search(rf"^### {re.escape(heading)}\n(.*?)(?=^#{{1,6}} |\Z)", guide, re.M | re.S)
    assert section, f"docs/operations.md has no heading '### {heading}'"
    block = re.search(r"^```bash\n(.*?)^```", section.group(1), re.M | re.S)
    assert block, f"'### {heading}' in docs/operations.md has no bash block"
    return block.group(1)


def run_documented(heading: str, cwd: Path, put_in: dict[str, str] | None = None) -> str:
    """Run the documented block in bash (stopping at the first failing command); its standard output."""
    script = documented_block(heading)
    for example, ours in (put_in or {}).items():
        assert example in script, f"'### {heading}' no longer says {example!r}"
        script = script.replace(example, ours)
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=_WITHOUT_PG_SETTINGS,
    )
    assert done.returncode == 0, f"'### {heading}' failed ({done.returncode}):\n{done.stdout}{done.stderr}"
    return done.stdout


def record_history(store: HistoryStore, days: int, first: date = FIRST_DAY) -> None:
    """Days of the daily job's rows: two domains' lookups, weekly Trust Maps, a site's tracked keywords."""
    store.watchlist.watch(ACCOUNT, "domain", "semrush.com")
    for n in range(days):
        day = first + timedelta(days=n)
        store.snapshots.record_lookup(
            ACCOUNT, samples.lookup("stripe.com", dr=70 + n % 5, traffic=1000 + n), day, "job"
        )
        store.snapshots.record_lookup(ACCOUNT, samples.lookup("semrush.com", dr=90 - n % 3), day, "job")
        store.snapshots.record_tracked(
            ACCOUNT, samples.tracked(positions={"crm software": 5 + n % 4}), day, "job"
        )
        if n % 7 == 0:
            members = tuple(f"site{m}.com" for m in range(n // 7, n // 7 + 5))
            store.snapshots.record_trust_map(ACCOUNT, samples.trust_map("stripe.com", members), day, "job")


def reading(store: HistoryStore) -> dict[str, Any]:
    """What the history reads: each table's row count and the frames the History page shows."""
    with store.engine.connect() as conn:
        counts = {
            table.name: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for table in Base.metadata.sorted_tables
        }
        counts["alembic_version"] = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    return {
        "counts": counts,
        "domains": store.queries.domain_history(ACCOUNT, ["stripe.com", "semrush.com"]),
        "links": store.queries.trust_map_links(ACCOUNT, "stripe.com", FIRST_DAY + timedelta(days=14)),
        "keywords": store.queries.keyword_history(ACCOUNT),
        "watchlist": [(item.kind, item.subject) for item in store.watchlist.entries(ACCOUNT)],
    }


def assert_reads_the_same(restored: dict[str, Any], expected: dict[str, Any]) -> None:
    assert restored["counts"] == expected["counts"]
    assert restored["watchlist"] == expected["watchlist"]
    for frame in ("domains", "links", "keywords"):
        pd.testing.assert_frame_equal(restored[frame], expected[frame], check_dtype=False)


def test_an_sqlite_history_backed_up_online_restores_as_it_was(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"  # the commands run from the checkout: data/ and .venv/ beside each other
    (checkout / "data").mkdir(parents=True)
    (checkout / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    database = checkout / "data" / "history.sqlite3"
    store = HistoryStore.open(f"sqlite:///{database}")
    record_history(store, DAYS)
    expected = reading(store)
    assert expected["counts"]["domain_snapshots"] == 2 * DAYS
    # The store is open and its latest writes are still in the write-ahead log: the backup must hold them.
    assert Path(f"{database}-wal").stat().st_size > 0

    assert run_documented("SQLite: back up", checkout).strip() == "ok"
    [backup] = (checkout / "data" / "backups").glob("history-*.sqlite3")

    record_history(store, 3, first=FIRST_DAY + timedelta(days=DAYS))  # written after the backup
    store.close()  # the app and the jobs are stopped before a restore
    assert (
        run_documented(
            "SQLite: restore",
            checkout,
            {"data/backups/history-2026-11-26.sqlite3": f"data/backups/{backup.name}"},
        ).strip()
        == "ok"
    )

    assert (checkout / "data" / "replaced" / "history.sqlite3").exists()  # what it replaced, kept aside
    restored = HistoryStore.open(f"sqlite:///{database}")
    try:
        assert_reads_the_same(reading(restored), expected)
    finally:
        restored.close()


def _admin(server: PostgresServer, statement: str) -> None:
    with psycopg.connect(
        f"host=127.0.0.1 port={server.port} user=postgres dbname=postgres", autocommit=True
    ) as conn:
        conn.execute(statement)  # the test's own fixed statements


def test_a_postgresql_history_dumped_online_restores_into_a_fresh_database(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    # As in a deployment: the dashboard's own user owns its database and the tables the app creates.
    # The server is shared by the worker's store tests; the moving tests make the same user.
    _admin(
        postgres, "DO $$ BEGIN CREATE ROLE dashboard LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
    )
    _admin(postgres, "CREATE DATABASE history OWNER dashboard")
    server = f"127.0.0.1:{postgres.port}"
    store = HistoryStore.open(f"postgresql+psycopg://dashboard@{server}/history")
    record_history(store, DAYS)
    expected = reading(store)
    assert expected["counts"]["domain_snapshots"] == 2 * DAYS

    # The backup runs while the store is open (the test server trusts loopback: no password to give).
    run_documented("PostgreSQL: back up", tmp_path, {"db.internal:5432": server})
    [dump] = (tmp_path / "data" / "backups").glob("history-*.dump")

    record_history(store, 3, first=FIRST_DAY + timedelta(days=DAYS))  # written after the backup
    store.close()
    run_documented(
        "PostgreSQL: restore",
        tmp_path,
        {
            "--host=db.internal --port=5432": f"--host=127.0.0.1 --port={postgres.port}",
            "db.internal:5432": server,
            "data/backups/history-2026-11-26.dump": f"data/backups/{dump.name}",
        },
    )

    restored = HistoryStore.open(f"postgresql+psycopg://dashboard@{server}/history_restored")
    try:
        assert_reads_the_same(reading(restored), expected)
        with restored.engine.connect() as conn:  # the restored tables belong to the dashboard's user
            owners = conn.execute(
                text("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")
            )
            assert owners.scalars().all() == ["dashboard"]
    finally:
        restored.close()


@pytest.mark.parametrize(
    "heading", ["SQLite: back up", "SQLite: restore", "PostgreSQL: back up", "PostgreSQL: restore"]
)
def test_the_guide_gives_each_command_block(heading: str) -> None:
    assert documented_block(heading).strip()
