"""The schema: built from nothing by the migrations, upgraded from the first revision without losing a
row, and a database that cannot be reached reported in plain words without its password."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from store import HistoryStore, StoreUnavailable
from store.engine import make_engine
from store.migrations import FIRST_REVISION, current_revision, head_revision
from tests.store import samples
from tests.store.samples import ACCOUNT

HEAD_TABLES = {
    "watch_items",
    "domain_snapshots",
    "trust_map_snapshots",
    "trust_map_links",
    "keyword_snapshots",
    "serp_results",
    "keyword_tags",
    "brand_terms",
    "chart_notes",
}


def test_an_empty_database_gets_every_table_at_the_newest_revision(store_url: str) -> None:
    with HistoryStore.open(store_url) as store:
        assert current_revision(store.engine) == head_revision()
        tables = set(inspect(store.engine).get_table_names())
        assert tables >= HEAD_TABLES
        assert "global_rank" in {c["name"] for c in inspect(store.engine).get_columns("domain_snapshots")}
    # Opening again changes nothing and keeps working.
    with HistoryStore.open(store_url) as again:
        assert current_revision(again.engine) == head_revision()


def test_a_database_made_by_the_first_schema_keeps_every_row_when_upgraded(
    store_url: str, database_at: Callable[..., None]
) -> None:
    database_at(
        FIRST_REVISION,
        "trust_map_snapshots",
        (
            "INSERT INTO watch_items (account, kind, subject, origin, added_at) "
            "VALUES (:a, 'domain', 'stripe.com', 'added', :t), (:a, 'domain', 'example.com', 'own', :t)",
            {"a": ACCOUNT, "t": "2024-12-01 10:00:00"},
        ),
        (
            "INSERT INTO domain_snapshots (account, domain, day, dr, true_dr, traffic, source,"
            " recorded_at) VALUES (:a, 'stripe.com', :day, :dr, :tdr, :traffic, 'job', :t)",
            [
                {
                    "a": ACCOUNT,
                    "day": date(2024, 11, 1 + n),
                    "dr": 60 + n,
                    "tdr": 50 + n,
                    "traffic": 1000 * n,
                    "t": "2024-12-01 10:00:00",
                }
                for n in range(30)
            ],
        ),
    )

    with HistoryStore.open(store_url) as store:
        assert current_revision(store.engine) == head_revision()
        assert [(w.subject, w.origin) for w in store.watchlist.entries(ACCOUNT)] == [
            ("example.com", "own"),
            ("stripe.com", "added"),
        ]
        history = store.queries.domain_history(ACCOUNT, ["stripe.com"], since=None)
        assert len(history) == 30
        assert history["dr"].tolist() == list(range(60, 90))
        assert history["traffic"].tolist() == [1000 * n for n in range(30)]
        assert history["global_rank"].isna().all()  # the column the second revision added
        # The upgraded database takes new kinds of rows.
        assert store.queries.trust_map_days(ACCOUNT, "stripe.com") == []


def test_the_app_and_the_job_opening_a_new_database_at_once_both_succeed(store_url: str) -> None:
    problems: list[BaseException] = []

    def open_one() -> None:
        try:
            HistoryStore.open(store_url).close()
        except BaseException as exc:
            problems.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []


def test_connections_to_a_new_sqlite_file_at_the_same_moment_all_get_in(tmp_path: Path) -> None:
    """Two connections switching a new file to WAL at once: SQLite refuses one at once ("database is
    locked", its busy timeout unused), which once made the app or the daily job fail to start. Many
    rounds, each with six connections let go together, since one round rarely meets the moment."""
    refused: list[str] = []
    for round_ in range(150):
        url = f"sqlite:///{tmp_path / f'new-{round_}.sqlite3'}"
        engines = [make_engine(url) for _ in range(6)]
        start = threading.Barrier(len(engines))

        def connect(engine: Engine, start: threading.Barrier) -> None:
            start.wait()
            try:
                with engine.connect() as connection:
                    connection.execute(text("SELECT 1"))
            except SQLAlchemyError as exc:
                refused.append(str(exc.__cause__ or exc))

        threads = [threading.Thread(target=connect, args=(engine, start)) for engine in engines]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for engine in engines:
            engine.dispose()
    assert refused == []


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_database_says_why_in_plain_words_without_the_password() -> None:
    url = f"postgresql+psycopg://analyst:s3cr3t-pw@127.0.0.1:{_closed_port()}/history"
    with pytest.raises(StoreUnavailable) as caught:
        HistoryStore.open(url)
    reason = caught.value.reason
    assert "s3cr3t-pw" not in reason and "s3cr3t-pw" not in str(caught.value)
    assert reason.startswith("could not connect to the history database at postgresql+psycopg://analyst:***@")
    assert reason.endswith(": connection refused")


def test_a_sqlite_file_that_cannot_be_created_is_reported(tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(StoreUnavailable) as caught:
        HistoryStore.open(f"sqlite:///{blocker}/history.sqlite3")
    assert "history database" in caught.value.reason


def test_a_database_of_another_kind_is_refused_with_the_forms_that_work() -> None:
    with pytest.raises(StoreUnavailable) as caught:
        HistoryStore.open("mysql://root:pw@127.0.0.1/history")
    assert "pw" not in caught.value.reason.replace("postgresql+psycopg://user:password", "")
    assert "sqlite:///" in caught.value.reason


def test_a_database_that_breaks_after_opening_gives_plain_words_not_a_traceback(store_url: str) -> None:
    with HistoryStore.open(store_url) as store:
        with store.engine.begin() as conn:
            conn.execute(text("DROP TABLE domain_snapshots"))
        with pytest.raises(StoreUnavailable) as caught:
            store.snapshots.record_lookup(ACCOUNT, samples.lookup(), date(2025, 1, 6), "job")
        assert caught.value.reason.startswith("could not write to the history database at ")
        with pytest.raises(StoreUnavailable) as caught:
            store.queries.domain_history(ACCOUNT, ["stripe.com"])
        assert caught.value.reason.startswith("could not read the history database at ")
