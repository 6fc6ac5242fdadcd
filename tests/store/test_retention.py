"""Retention: top 10s older than ``keep_daily_days`` thinned to one day a week (the first recorded day of
each ISO week, per account), on SQLite and PostgreSQL; nothing else touched; idempotent; a dry run
removes nothing; the daily job prunes after it records; the pages' note knows when the history is weekly."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, insert, select

from analysis.market import DEFAULT_CTR
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from services.cli import Lines, record_snapshot
from services.cli.commands import main
from services.cli.retention import prune_now
from services.jobs import visibility
from services.jobs.exit_codes import EXIT_OK, EXIT_USAGE
from services.reports.branding import Branding
from services.reports.content import visibility_section
from services.reports.document import build_report
from services.retention import weekly_points_note
from store import HistoryStore
from store.models import DomainSnapshotRow, KeywordSnapshotRow, SerpResultRow
from store.reports.period import Period
from store.retention import ENV_VAR, RetentionSettingError, daily_from, keep_daily_days

TODAY = date(2026, 6, 30)  # a Tuesday
KEEP = 90
FIRST_DAILY = daily_from(TODAY, KEEP)  # 2026-04-02, a Thursday
AT = datetime(2026, 6, 30, tzinfo=UTC)
KEYWORDS = ("coffee beans", "espresso")
#: Account A recorded every day for 200 days but skipped the Mondays of two weeks; account B began later.
SKIPPED = {date(2026, 1, 5), date(2026, 3, 2)}
DAYS_A = [TODAY - timedelta(days=n) for n in range(200) if TODAY - timedelta(days=n) not in SKIPPED]
DAYS_B = [TODAY - timedelta(days=n) for n in range(120)]


def _rows(account: str, days: list[date]) -> Iterator[dict[str, object]]:
    for day in days:
        for keyword in KEYWORDS:
            for position in (1, 2, 3):
                yield {
                    "account": account,
                    "site": "example.com",
                    "keyword": keyword,
                    "day": day,
                    "position": position,
                    "domain": f"site{position}.com",
                    "dr": 50 + position,
                    "source": "snapshot",
                    "recorded_at": AT,
                }


@pytest.fixture
def history(store: HistoryStore) -> HistoryStore:
    store.partitions.ensure([*DAYS_A, *DAYS_B])  # rows inserted directly: their months first
    with store.engine.begin() as conn:
        conn.execute(insert(SerpResultRow.__table__), [*_rows("a", DAYS_A), *_rows("b", DAYS_B)])
        conn.execute(
            insert(DomainSnapshotRow.__table__),
            [
                {
                    "account": "a",
                    "domain": "example.com",
                    "day": day,
                    "dr": 40,
                    "source": "s",
                    "recorded_at": AT,
                }
                for day in DAYS_A
            ],
        )
        conn.execute(
            insert(KeywordSnapshotRow.__table__),
            [
                {
                    "account": "a",
                    "site": "example.com",
                    "keyword": k,
                    "day": day,
                    "position": 4,
                    "source": "s",
                }
                | {"recorded_at": AT}
                for day in DAYS_A
                for k in KEYWORDS
            ],
        )
    return store


def _serp_days(store: HistoryStore, account: str) -> list[date]:
    with store.engine.connect() as conn:
        table = SerpResultRow.__table__
        query = select(table.c.day).where(table.c.account == account).distinct().order_by(table.c.day)
        return list(conn.execute(query).scalars())


def _count(store: HistoryStore, model: type[DomainSnapshotRow | KeywordSnapshotRow | SerpResultRow]) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(model.__table__)).scalar_one())


def _expected(days: list[date]) -> list[date]:
    """By hand: every day from FIRST_DAILY, and before it each ISO week's first recorded day."""
    firsts: dict[tuple[int, int], date] = {}
    for day in sorted(days):
        firsts.setdefault(day.isocalendar()[:2], day)
    return sorted({d for d in days if d >= FIRST_DAILY} | {d for d in firsts.values() if d < FIRST_DAILY})


def _lines() -> tuple[Lines, list[str], list[str]]:
    said: list[str] = []
    out: list[str] = []
    return Lines(said.append, out.append), said, out


def test_prune_keeps_the_first_recorded_day_of_each_old_week_and_every_recent_day(
    history: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(KEEP))
    before_domains, before_keywords = _count(history, DomainSnapshotRow), _count(history, KeywordSnapshotRow)
    lines, said, out = _lines()
    assert prune_now(history, TODAY, lines=lines) == EXIT_OK

    kept_a = _serp_days(history, "a")
    assert kept_a == _expected(DAYS_A)
    assert date(2026, 1, 6) in kept_a  # the Tuesday stands for the week whose Monday was missed
    assert [d for d in kept_a if d >= FIRST_DAILY] == sorted(d for d in DAYS_A if d >= FIRST_DAILY)
    assert _serp_days(history, "b") == _expected(DAYS_B)
    old_weeks = [d for d in kept_a if d < FIRST_DAILY]
    assert len({d.isocalendar()[:2] for d in old_weeks}) == len(old_weeks)  # one day a week
    with history.engine.connect() as conn:  # each kept day kept whole: every keyword, every position
        rows = conn.execute(select(func.count()).select_from(SerpResultRow.__table__)).scalar_one()
    assert rows == (len(kept_a) + len(_serp_days(history, "b"))) * len(KEYWORDS) * 3
    assert _count(history, DomainSnapshotRow) == before_domains  # DR snapshots never thinned
    assert _count(history, KeywordSnapshotRow) == before_keywords  # positions stay daily
    assert out[-1].startswith("Removed ") and "top-10 rows" in out[-1]
    assert any(line.startswith("1/") for line in said)  # a progress line per day removed

    lines, said, out = _lines()
    assert prune_now(history, TODAY, lines=lines) == EXIT_OK  # a second prune deletes nothing
    assert _serp_days(history, "a") == kept_a
    assert out[-1].startswith("Nothing to prune")


def test_a_dry_run_says_how_many_rows_and_removes_none(
    history: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(KEEP))
    rows_before = _count(history, SerpResultRow)
    expected_removed = (len(DAYS_A) - len(_expected(DAYS_A)) + len(DAYS_B) - len(_expected(DAYS_B))) * 6
    lines, _said, out = _lines()
    assert prune_now(history, TODAY, dry_run=True, lines=lines) == EXIT_OK
    assert _count(history, SerpResultRow) == rows_before
    assert out[-1].startswith(f"Would remove {expected_removed:,} top-10 rows")
    assert "nothing removed" in out[-1]


def test_without_the_setting_nothing_is_pruned_and_an_unusable_one_is_refused(
    history: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    rows_before = _count(history, SerpResultRow)
    lines, _said, out = _lines()
    assert prune_now(history, TODAY, lines=lines) == EXIT_OK
    assert len(out) == 1 and out[0].startswith("Retention is off")
    monkeypatch.setenv(ENV_VAR, "30")
    lines, said, _out = _lines()
    assert prune_now(history, TODAY, lines=lines) == EXIT_USAGE
    assert "at least 90" in said[-1]
    assert _count(history, SerpResultRow) == rows_before


def test_the_pages_note_appears_only_once_the_old_top_10s_are_weekly(history: HistoryStore) -> None:
    env = {ENV_VAR: str(KEEP)}
    assert weekly_points_note(history, "a", TODAY, None, environ=env, secrets_files=()) is None  # still daily
    history.retention.prune(FIRST_DAILY, batch_rows=4)  # several short transactions a day
    note = weekly_points_note(history, "a", TODAY, None, environ=env, secrets_files=())
    assert note is not None and note.startswith("Before 2 Apr 2026 one day a week of the top 10s is kept")
    assert "kept daily for 90 days" in note
    assert weekly_points_note(history, "a", TODAY, FIRST_DAILY, environ=env, secrets_files=()) is None
    assert weekly_points_note(history, "a", TODAY, date(2026, 3, 1), environ=env, secrets_files=()) == note
    assert (
        weekly_points_note(history, "a", TODAY, None, environ={}, secrets_files=()) is None
    )  # retention off
    assert weekly_points_note(history, "nobody", TODAY, None, environ=env, secrets_files=()) is None


def test_the_setting_comes_from_the_environment_then_the_secrets(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.toml"
    secrets.write_text("[history]\nkeep_daily_days = 400\n", encoding="utf-8")
    assert keep_daily_days({}, (secrets,)) == 400
    assert keep_daily_days({ENV_VAR: "120"}, (secrets,)) == 120
    assert keep_daily_days({}, ()) is None
    with pytest.raises(RetentionSettingError, match="whole number"):
        keep_daily_days({ENV_VAR: "a year"}, ())


def test_the_daily_job_prunes_after_it_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    day = date(2026, 10, 30)
    monkeypatch.setenv(ENV_VAR, str(KEEP))
    with HistoryStore.open(f"sqlite:///{tmp_path / 'job.sqlite3'}") as store:
        account = key_fingerprint(DEMO_KEY)
        seed_demo_history(store, account, DEMO_KEY, day - timedelta(days=1))
        daily_before = [d for d in _serp_days(store, account) if d < daily_from(day, KEEP)]
        assert len(daily_before) > 60  # 180 days of demo history, all daily
        said: list[str] = []
        with SandboxServer(SandboxConfig(), host="127.0.0.1", port=0) as sandbox:
            code = record_snapshot(
                store, sandbox.base_url, DEMO_KEY, day, timeout_s=20, lines=Lines(said.append, said.append)
            )
        assert code == EXIT_OK
        days = _serp_days(store, account)
        old = [d for d in days if d < daily_from(day, KEEP)]
        assert len({d.isocalendar()[:2] for d in old}) == len(old) < len(daily_before)
        assert day in days and daily_from(day, KEEP) in days
        assert any(line.startswith("Removed ") for line in said)


def test_a_report_whose_period_reaches_weekly_top_10s_says_so_under_its_visibility(
    store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    today = datetime.now(UTC).date()
    days = [today - timedelta(days=n) for n in range(130)]
    store.partitions.ensure(days)
    with store.engine.begin() as conn:
        conn.execute(insert(SerpResultRow.__table__), list(_rows("a", days)))
    monkeypatch.setenv(ENV_VAR, str(KEEP))
    old_month = Period(today - timedelta(days=120), today - timedelta(days=100))
    assert visibility_section(store, "a", "example.com", old_month, DEFAULT_CTR).weekly_note == ""
    store.retention.prune(daily_from(today, KEEP))
    section = visibility_section(store, "a", "example.com", old_month, DEFAULT_CTR)
    assert not section.lines.empty  # the weekly points are still figures of their own days
    assert (
        section.weekly_note.startswith("Before ") and "one day a week of the top 10s" in section.weekly_note
    )
    recent = Period(today - timedelta(days=20), today)
    assert visibility_section(store, "a", "example.com", recent, DEFAULT_CTR).weekly_note == ""
    store.watchlist.watch("a", "domain", "example.com", origin="own")
    for keyword in KEYWORDS:
        store.watchlist.watch("a", "keyword", keyword, site="example.com")
    with store.engine.begin() as conn:
        conn.execute(
            insert(DomainSnapshotRow.__table__),
            [
                {"account": "a", "domain": "example.com", "day": d, "dr": 40, "source": "s"}
                | {"recorded_at": AT}
                for d in days
            ],
        )
    built = build_report(store, "a", "example.com", old_month, branding=Branding(), renderer=None)
    assert section.weekly_note in built.html  # the report says it under its visibility chart


def test_a_prune_does_not_wait_for_a_reader_in_the_middle_of_a_read(history: HistoryStore) -> None:
    table = SerpResultRow.__table__
    with history.engine.connect() as reader, reader.begin():
        before = reader.execute(select(func.count()).select_from(table)).scalar_one()
        plan = history.retention.prune(FIRST_DAILY, batch_rows=50)  # the page's read stays open meanwhile
        reader.execute(select(func.count()).select_from(table)).scalar_one()
    assert plan.rows > 0
    assert _count(history, SerpResultRow) == before - plan.rows


def test_python_m_store_prune_dry_run_names_the_rows_it_would_remove(
    history: HistoryStore, store_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENV_VAR, "100000")  # nothing is that old: nothing to remove
    assert main(["prune", "--dry-run", "--database-url", store_url]) == EXIT_OK
    assert capsys.readouterr().out.startswith("Nothing to prune")
    monkeypatch.setenv(ENV_VAR, "90")  # counted from the real today: every recorded day is older
    rows = _count(history, SerpResultRow)
    assert main(["prune", "--dry-run", "--database-url", store_url]) == EXIT_OK
    assert capsys.readouterr().out.startswith("Would remove ")
    assert _count(history, SerpResultRow) == rows


def test_the_visibility_command_says_when_its_rows_reach_weekly_top_10s(
    history: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script's reader is told, on the command's messages, that the older rows are weekly points."""
    monkeypatch.setenv(ENV_VAR, str(KEEP))
    said: list[str] = []

    def command(days: int) -> str:
        said.clear()
        out = io.StringIO()
        asked = visibility.Asked("example.com", days, TODAY)
        assert (
            visibility.run(
                history, "a", DEFAULT_CTR, asked, as_csv=True, out=out, say=said.append, today=TODAY
            )
            == 0
        )
        return out.getvalue()

    before = command(180)
    assert said == []  # still daily
    history.retention.prune(FIRST_DAILY)
    after = command(180)
    assert len(said) == 1 and said[0].startswith("Before 2 Apr 2026 one day a week of the top 10s is kept")
    assert len(after.splitlines()) < len(before.splitlines())  # the thinned days are gone from the rows
    command(30)  # the last 30 days are all daily: nothing to say
    assert said == []
