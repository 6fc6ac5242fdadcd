"""Moving a whole history: ``python -m store copy`` from the SQLite default into a real PostgreSQL
server, ``export`` to CSV files and ``import`` back, into PostgreSQL and into SQLite.

The history is the sandbox's demo history plus rows of awkward values in every table of the app
(``tests.store.moving_history``). After a move, every table holds the same rows, value for value, and
the history reads the same: a domain's history, the market figures of ``services.market.site_market``,
a month's report. A copy killed halfway (SIGKILL after some batches, in a process of its own) is
continued by the same command, and a target that holds a history is refused with nothing written.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import psycopg
import pytest
from sqlalchemy import inspect, select, text

from rigs.postgres import PostgresServer
from services.market import site_market
from services.reports.content import gather
from store import HistoryStore
from store.bulk import PROGRESS, history_tables
from store.migrations import HEAD_REVISION
from store.models import WatchItemRow
from store.reports.period import Period
from tests.polling import until
from tests.store import samples
from tests.store.commands import run_command
from tests.store.moving_history import ACCOUNT, ODD_ROWS, fill_history, table_rows

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "docs" / "operations.md"
SITE = "example.com"
DECEMBER = Period(date(2024, 12, 1), date(2024, 12, 31))
#: Small batches, so the demo history moves in dozens of them and a kill can land halfway.
BATCH = "500"
_names = iter(range(1, 1_000))


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An SQLite history (the default kind) with the demo history and awkward rows in every table."""
    url = f"sqlite:///{tmp_path_factory.mktemp('moving') / 'history.sqlite3'}"
    with HistoryStore.open(url) as store:
        fill_history(store)
    yield url


def _new_database(postgres: PostgresServer) -> str:
    """A new database on a server whose zone is not UTC (as a server set up in Nepal would be): a moment
    copied without its zone would move by 5 h 45 min."""
    name = f"moved_{os.getpid()}_{next(_names)}"
    url = postgres.create_database(name)
    with psycopg.connect(
        f"host=127.0.0.1 port={postgres.port} user=postgres dbname=postgres", autocommit=True
    ) as c:
        c.execute(f"ALTER DATABASE \"{name}\" SET timezone TO 'Asia/Kathmandu'")  # the test's own name
    return url


def reading(url: str) -> dict[str, Any]:
    """What the pages read of the history: every row, a domain's history, the market, a month's report."""
    with HistoryStore.open(url) as store:
        market = site_market(
            store, ACCOUNT, SITE, since=DECEMBER.start, until=DECEMBER.end, ctr=(0.3, 0.2, 0.1)
        )
        report = gather(store, ACCOUNT, SITE, DECEMBER, ctr=(0.3, 0.2, 0.1))
        return {
            "rows": table_rows(store),
            "domains": store.queries.domain_history(ACCOUNT, [SITE, "semrush.com"]),
            "market": market.figures,
            "report": (report.summary, report.first_day, report.last_day, report.visibility.domains),
            "report keywords": report.keywords.rows,
            "report visibility": report.visibility.lines,
        }


def assert_planned_for_its_size(url: str, source: dict[str, Any]) -> None:
    """PostgreSQL's planner knows each moved table's rows (its statistics gathered by the move): without
    them the Market page's first read of a moved year took most of a minute."""
    with HistoryStore.open(url) as moved, moved.engine.connect() as conn:
        estimates = dict(
            conn.execute(select(text("relname"), text("reltuples")).select_from(text("pg_class"))).all()
        )
    assert {name: estimates[name] for name in source["rows"]} == {
        name: len(rows) for name, rows in source["rows"].items()
    }


def assert_reads_the_same(moved: dict[str, Any], source: dict[str, Any]) -> None:
    for name, rows in source["rows"].items():
        assert moved["rows"][name] == rows, f"{name} differs"
    assert moved["report"] == source["report"]
    for frame in ("domains", "market", "report keywords", "report visibility"):
        pd.testing.assert_frame_equal(moved[frame], source[frame], check_dtype=False)


@pytest.fixture(scope="module")
def source_reading(source: str) -> dict[str, Any]:
    found = reading(source)
    assert all(len(rows) >= ODD_ROWS for rows in found["rows"].values()), "every table holds rows"
    assert not found["market"].empty and not found["report keywords"].empty
    return found


def test_a_copy_into_postgresql_holds_every_row_and_reads_the_same(
    source: str,
    source_reading: dict[str, Any],
    postgres: PostgresServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = _new_database(postgres)
    code, out, err = run_command(
        capsys, "copy", "--database-url", source, "--to", target, "--batch-rows", BATCH
    )
    assert code == 0, err
    assert re.fullmatch(
        r"verified: 22 tables, [\d,]+ rows, every table's row count matches the source\n", out
    )
    assert re.search(r"^serp_results: [\d,]+ / [\d,]+ rows, [\d,]+ rows a second$", err, re.M)
    assert_reads_the_same(reading(target), source_reading)
    assert_planned_for_its_size(target, source_reading)
    # And back: PostgreSQL (read with a server-side cursor, its zone not UTC) into a new SQLite file.
    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    code, out, err = run_command(
        capsys, "copy", "--database-url", target, "--to", back, "--batch-rows", BATCH
    )
    assert code == 0 and out.startswith("verified: 22 tables"), err
    assert_reads_the_same(reading(back), source_reading)
    with HistoryStore.open(target) as moved:
        assert not inspect(moved.engine).has_table(PROGRESS.name), "the copy's bookkeeping is gone"
        # The id sequences were moved past the copied ids: the app's next row gets a new id.
        moved.watchlist.watch(ACCOUNT, "domain", "newly-watched.com")
        with moved.engine.connect() as conn:
            ids = conn.execute(select(WatchItemRow.id)).scalars().all()
        assert len(ids) == len(set(ids)) == len(source_reading["rows"]["watch_items"]) + 1


def test_every_table_the_migrations_make_is_moved(tmp_path: Path) -> None:
    """A table added by a migration but not in the metadata the moves walk would be left behind; only the
    market's roll-ups are left out on purpose."""
    with HistoryStore.open(f"sqlite:///{tmp_path / 'history.sqlite3'}") as store:
        made = set(inspect(store.engine).get_table_names())
    # Summed or tallied again from the history on first read.
    derived = {
        "market_roll_days",
        "market_roll_domains",
        "keyword_months",
        "keyword_month_stamps",
        "top10_dr_days",
        "top10_dr_stamps",
        "keyword_latest_values",
        "keyword_latest_stamps",
    }
    assert made - {"alembic_version"} - derived == {table.name for table in history_tables()}


def _copy_in_a_process(source: str, target: str, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "store",
            "copy",
            "--database-url",
            source,
            "--to",
            target,
            "--batch-rows",
            BATCH,
            *more,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_a_copy_killed_halfway_continues_where_it_stopped(
    source: str, source_reading: dict[str, Any], postgres: PostgresServer, tmp_path: Path
) -> None:
    own = f"sqlite:///{tmp_path / 'history.sqlite3'}"  # this test adds a row to its source
    shutil.copy(source.removeprefix("sqlite:///"), tmp_path / "history.sqlite3")
    target = _new_database(postgres)
    killed = _copy_in_a_process(own, target, "--stop-after-batches", "30")
    assert killed.returncode == -9, killed.stderr  # SIGKILL: no clean-up of any kind
    with HistoryStore.open(target) as partial:
        counts = partial.bulk.counts(history_tables())
    total = sum(len(rows) for rows in source_reading["rows"].values())
    assert 0 < sum(counts.values()) < total, "the kill left part of the history"
    assert counts["domain_snapshots"] == len(source_reading["rows"]["domain_snapshots"]), "copied before"
    # The app went on recording meanwhile: a row added to a table the copy had finished.
    with HistoryStore.open(own) as still_in_use:
        still_in_use.snapshots.record_lookup(ACCOUNT, samples.lookup("stripe.com"), date(2025, 1, 7), "job")

    again = _copy_in_a_process(own, target)
    assert again.returncode == 0, again.stderr
    assert re.search(r"rows were copied before; continuing after them", again.stderr)
    assert again.stdout.startswith("verified: 22 tables")
    expected = reading(own)
    assert len(expected["rows"]["domain_snapshots"]) == counts["domain_snapshots"] + 1
    assert_reads_the_same(reading(target), expected)


def test_a_target_holding_a_history_is_refused_and_left_as_it_was(
    source: str, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    target = _new_database(postgres)
    with HistoryStore.open(target) as theirs:
        theirs.watchlist.watch("another-team", "domain", "their-site.com")
    before = reading_rows(target)
    code, out, err = run_command(capsys, "copy", "--database-url", source, "--to", target)
    assert code == 2 and out == ""
    assert "already holds a history (1 table with rows, among them watch_items): nothing was copied" in err
    assert reading_rows(target) == before
    # Nor is the configured database copied onto itself.
    code, _out, err = run_command(capsys, "copy", "--database-url", source, "--to", source)
    assert code == 2 and "is the configured database itself" in err


def reading_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    with HistoryStore.open(url) as store:
        return table_rows(store)


def test_an_export_imports_into_postgresql_and_into_sqlite_with_identical_rows(
    source: str,
    source_reading: dict[str, Any],
    postgres: PostgresServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "export"
    code, out, err = run_command(capsys, "export", "--database-url", source, "--to", str(folder))
    assert code == 0, err
    assert out.startswith("exported ") and (folder / "manifest.json").exists()
    assert sorted(p.name for p in folder.glob("*.csv.gz")) == sorted(
        f"{t.name}.csv.gz" for t in history_tables()
    )
    # A team reads the files as they are: NULL is an empty cell, every value is as stored.
    serps = pd.read_csv(folder / "serp_results.csv.gz")
    assert len(serps) == len(source_reading["rows"]["serp_results"])

    into_postgresql = _new_database(postgres)
    for target in (into_postgresql, f"sqlite:///{tmp_path / 'imported.sqlite3'}"):
        code, out, err = run_command(
            capsys, "import", "--database-url", target, "--from", str(folder), "--batch-rows", BATCH
        )
        assert code == 0, err
        assert out.startswith("verified: 22 tables") and out.rstrip().endswith("matches the export")
        assert_reads_the_same(reading(target), source_reading)
    assert_planned_for_its_size(into_postgresql, source_reading)

    # An export is never written over, and an import never goes into a history.
    code, _out, err = run_command(capsys, "export", "--database-url", source, "--to", str(folder))
    assert code == 2 and "already holds an export" in err
    code, _out, err = run_command(capsys, "import", "--database-url", source, "--from", str(folder))
    assert code == 2 and "already holds a history" in err
    code, _out, err = run_command(capsys, "import", "--database-url", source, "--from", str(tmp_path))
    assert code == 2 and "has no manifest.json" in err


def test_an_import_killed_halfway_continues(
    source: str, source_reading: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "export"
    assert run_command(capsys, "export", "--database-url", source, "--to", str(folder))[0] == 0
    target = f"sqlite:///{tmp_path / 'imported.sqlite3'}"
    command = [sys.executable, "-m", "store", "import", "--database-url", target, "--from", str(folder)]
    killed = subprocess.run(
        [*command, "--batch-rows", BATCH, "--stop-after-batches", "25"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert killed.returncode == -9, killed.stderr
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert "continuing after them" in again.stderr
    assert reading_rows(target) == source_reading["rows"]


def _guide_block(heading: str) -> str:
    guide = OPERATIONS.read_text(encoding="utf-8")
    section = re.search(rf"^### {re.escape(heading)}\n(.*?)(?=^#{{1,6}} |\Z)", guide, re.M | re.S)
    assert section, f"docs/operations.md has no heading '### {heading}'"
    block = re.search(r"^```bash\n(.*?)^```", section.group(1), re.M | re.S)
    assert block, f"'### {heading}' has no bash block"
    return block.group(1)


def test_the_guides_move_to_postgresql_runs_as_written(
    source: str, source_reading: dict[str, Any], postgres: PostgresServer, tmp_path: Path
) -> None:
    name = f"moved_{os.getpid()}_{next(_names)}"
    with psycopg.connect(
        f"host=127.0.0.1 port={postgres.port} user=postgres dbname=postgres", autocommit=True
    ) as c:
        c.execute(
            "DO $$ BEGIN CREATE ROLE dashboard LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
    script = _guide_block("Copying the history into PostgreSQL")
    for example, ours in {
        "--host=db.internal --port=5432": f"--host=127.0.0.1 --port={postgres.port}",
        "db.internal:5432/history": f"127.0.0.1:{postgres.port}/{name}",
        "--owner=dashboard history": f"--owner=dashboard {name}",
    }.items():
        assert example in script, f"the guide no longer says {example!r}"
        script = script.replace(example, ours)
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    environment |= {"DASHBOARD_DATABASE_URL": source, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=environment,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every table's row count matches the source" in done.stdout
    assert reading_rows(postgres.url(name)) == source_reading["rows"]


def test_an_import_refuses_an_export_of_another_schema_revision_or_a_damaged_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    with HistoryStore.open(source) as store:
        store.watchlist.watch(ACCOUNT, "domain", "stripe.com")
    folder = tmp_path / "export"
    assert run_command(capsys, "export", "--database-url", source, "--to", str(folder))[0] == 0
    manifest = folder / "manifest.json"
    written = manifest.read_text(encoding="utf-8")

    manifest.write_text(
        written.replace(f'"revision": "{HEAD_REVISION}"', '"revision": "0011"'), encoding="utf-8"
    )
    target = f"sqlite:///{tmp_path / 'imported.sqlite3'}"
    code, _out, err = run_command(capsys, "import", "--database-url", target, "--from", str(folder))
    assert code == 2
    assert f"is at schema revision 0011; this version of the dashboard is at {HEAD_REVISION}" in err

    manifest.write_text(written, encoding="utf-8")
    with gzip.open(folder / "watch_items.csv.gz", "wt", encoding="utf-8", newline="") as damaged:
        damaged.write('"id","account","kind","subject","origin","added_at","site"\n"1","a","domain"\n')
    code, _out, err = run_command(capsys, "import", "--database-url", target, "--from", str(folder))
    assert code == 2 and "watch_items.csv.gz, record 2: 3 values for 7 columns" in err


def _rows_noted(url: str) -> int:
    """The rows a copy into ``url`` has noted as written so far (0 before it has begun)."""
    with HistoryStore.open(url) as target:
        progress = target.bulk.progress(history_tables()) or {}
    return sum(state.copied for state in progress.values())


def test_a_copy_killed_at_any_moment_continues(
    source: str, source_reading: dict[str, Any], postgres: PostgresServer
) -> None:
    """Killed from outside whenever it has got going, in the middle of a batch as likely as not."""
    target = _new_database(postgres)
    command = [sys.executable, "-m", "store", "copy", "--database-url", source, "--to", target]
    running = subprocess.Popen([*command, "--batch-rows", "50"], cwd=ROOT, stderr=subprocess.DEVNULL)
    try:
        assert until(lambda: _rows_noted(target) >= 1_000 or running.poll() is not None)
    finally:
        running.send_signal(signal.SIGKILL)
        running.wait()
    assert running.returncode == -signal.SIGKILL, "the copy ended before it could be killed"

    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert reading_rows(target) == source_reading["rows"]
