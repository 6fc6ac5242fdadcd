"""The daily job at size, end to end against a real sandbox server and a real database: a run killed
half-way and started again the same day asks no recorded subject twice and records every subject once; a
read that failed is asked again; ``--max-calls`` refuses a run that needs more, before any read; a large
watchlist says progress lines instead of a line per subject."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from services.jobs import snapshot
from store import HistoryStore
from tests.store.commands import run_command
from tests.store.test_store_snapshot_job import AS_OF, OWN_SITES, JobRun, run_job, snapshot_on_day

__all__ = ["snapshot_on_day"]  # the fixture, shared with the job's other tests

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "example.com"
ROOT = Path(__file__).resolve().parents[2]
#: Calls a run of the demo key needs besides its keywords: each own site's lookup, Trust Map, tracked list.
OWN_CALLS = 3 * len(OWN_SITES)


def keywords(count: int, prefix: str = "resume keyword") -> list[str]:
    return [f"{prefix} {i}" for i in range(count)]


def watch(url: str, watched: list[str]) -> None:
    with HistoryStore.open(url) as store:
        store.watchlist.watch_many(ACCOUNT, [("keyword", keyword, SITE) for keyword in watched])


def asks_per_keyword(server: SandboxServer) -> Counter[str]:
    """How many times the service was asked each keyword's report."""
    asked: Counter[str] = Counter()
    for (_method, path, query), count in server.state.request_counts.items():
        if path == "/api/v1/keywords" and count:
            asked[parse_qs(query)["keyword"][0]] += count
    return asked


def recorded_keywords(url: str) -> Counter[str]:
    """Each keyword with a recorded report on the day, by how many rows it has (one is right)."""
    with HistoryStore.open(url) as store:
        history = store.queries.keyword_history(ACCOUNT, SITE)
    return Counter(history.loc[history["day"].dt.date.astype(str) == AS_OF, "keyword"])


def test_a_run_killed_half_way_and_started_again_asks_no_recorded_subject_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'history.sqlite3'}"
    watched = keywords(40)
    watch(url, watched)
    workers = 2
    # A slow service, so the kill lands half-way.
    with SandboxServer(SandboxConfig(latency_ms=100), host="127.0.0.1", port=0) as slow:
        env = {**os.environ, "VERIFIEDDR_API_KEY": DEMO_KEY, "VERIFIEDDR_API_BASE": slow.base_url}
        args = [sys.executable, "-m", "store", "snapshot", "--database-url", url, "--as-of", AS_OF]
        job = subprocess.Popen(
            [*args, "--workers", str(workers)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert job.stderr is not None
        keyword_lines = 0
        deadline = time.monotonic() + 120
        while keyword_lines < 10 and time.monotonic() < deadline:
            line = job.stderr.readline()
            if not line:
                break  # the job ended before it was killed: the assertion below says so
            if line.startswith("[") and '] keyword "' in line:
                keyword_lines += 1
        job.send_signal(signal.SIGKILL)
        job.wait(timeout=30)
        before = recorded_keywords(url)
        assert 5 <= len(before) < len(watched), f"killed after {len(before)} keywords"
        asked_before = asks_per_keyword(slow)

        code, out, err = run_job(monkeypatch, capsys, slow.base_url, url, "--as-of", AS_OF)
        asked = asks_per_keyword(slow)
    assert code == 0, err
    # Every subject is recorded once; none the first run recorded was asked again; only those in flight
    # when the kill came (at most one per worker) were asked twice.
    assert recorded_keywords(url) == Counter(dict.fromkeys(watched, 1))
    assert set(asked) == set(watched)
    twice = {keyword for keyword, count in asked.items() if count > 1}
    assert not twice & set(before), f"recorded before the kill, asked again: {sorted(twice & set(before))}"
    assert len(twice) <= workers and all(asked_before[keyword] == 1 for keyword in twice)
    assert asked.total() <= len(watched) + workers
    summary = out.strip().splitlines()[-1]
    recorded, unchanged = (int(n) for n in re.findall(r"\d+", summary)[:2])
    assert recorded + unchanged == len(OWN_SITES) + len(watched) and unchanged >= len(before)
    assert f"subjects were recorded earlier on {AS_OF}: not asked again" in err


def test_a_second_run_the_same_day_asks_nothing_again(
    sandbox: SandboxServer, store_url: str, snapshot_on_day: JobRun
) -> None:
    watch(store_url, keywords(4))
    code, _out, _err = snapshot_on_day()
    assert code == 0
    sandbox.state.reset()
    code, out, err = snapshot_on_day()
    assert code == 0, err
    assert out.strip().splitlines()[-1] == f"recorded 0, unchanged {len(OWN_SITES) + 4}, failed 0"
    # Only the list of the account's sites (to learn a new own site): no subject is read again.
    assert [path for (_m, path, _q), n in sandbox.state.request_counts.items() if n] == ["/api/v1/sites"]
    assert f"{len(OWN_SITES) + 4} of {len(OWN_SITES) + 4} subjects were recorded earlier" in err


def test_a_read_that_failed_is_asked_again_by_the_next_run_and_only_it(
    sandbox: SandboxServer, store_url: str, snapshot_on_day: JobRun
) -> None:
    watched = keywords(3, "retried keyword")
    watch(store_url, watched)
    sandbox.state.add_fault("keyword_report", 500, key=DEMO_KEY, times=1)
    code, out, err = snapshot_on_day()
    assert code == 1 and out.strip().splitlines()[-1].endswith("failed 1")
    failed = next(k for k in watched if f'failed: keyword "{k}" for {SITE}: keyword report failed' in err)
    sandbox.state.reset()
    code, out, err = snapshot_on_day()
    assert code == 0, err
    assert asks_per_keyword(sandbox) == Counter({failed: 1})
    assert out.strip().splitlines()[-1] == f"recorded 1, unchanged {len(OWN_SITES) + 2}, failed 0"
    assert recorded_keywords(store_url) == Counter(dict.fromkeys(watched, 1))


def test_max_calls_refuses_a_run_that_needs_more_before_reading_any_subject(
    sandbox: SandboxServer,
    store_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    watched = keywords(5, "guarded keyword")
    watch(store_url, watched)
    needed = OWN_CALLS + len(watched)
    code, out, err = run_job(
        monkeypatch, capsys, sandbox.base_url, store_url, "--as-of", AS_OF, "--max-calls", str(needed - 1)
    )
    assert code == 2 and out == ""
    assert (
        f"This run needs {needed} calls for {len(OWN_SITES) + len(watched)} subjects, more than "
        f"--max-calls {needed - 1}: no subject was read." in err
    )
    assert [path for (_m, path, _q), n in sandbox.state.request_counts.items() if n] == ["/api/v1/sites"]
    assert recorded_keywords(store_url) == Counter()

    code, out, err = run_job(
        monkeypatch, capsys, sandbox.base_url, store_url, "--as-of", AS_OF, "--max-calls", str(needed)
    )
    assert code == 0, err
    assert f"This run needs {needed} calls for {len(OWN_SITES) + len(watched)} subjects (--max-calls" in err
    assert recorded_keywords(store_url) == Counter(dict.fromkeys(watched, 1))


def test_max_calls_below_zero_is_refused_in_words(
    sandbox: SandboxServer,
    store_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    monkeypatch.setenv("VERIFIEDDR_API_BASE", sandbox.base_url)
    code, _out, err = run_command(capsys, "snapshot", "--database-url", store_url, "--max-calls", "-1")
    assert code == 2 and "--max-calls is a number of calls, 0 or more." in err
    assert sum(sandbox.state.request_counts.values()) == 0


def test_a_large_watchlist_says_progress_lines_not_a_line_per_subject(
    sandbox: SandboxServer, store_url: str, snapshot_on_day: JobRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The threshold lowered so a small list is "large": the same lines 5,000 keywords would give.
    monkeypatch.setattr(snapshot, "EACH_SUBJECT_UP_TO", 10)
    watched = keywords(40, "progress keyword")
    watch(store_url, watched)
    sandbox.state.add_fault("keyword_report", 500, key=DEMO_KEY, times=1)
    code, _out, err = snapshot_on_day()
    assert code == 1
    lines = err.splitlines()
    progress = [line for line in lines if line.startswith("progress: ")]
    reads = OWN_CALLS + len(watched)
    # A line at each tenth of the reads (or every 30 s on a slow machine), the last one saying it is done.
    assert 10 <= len(progress) <= 10 + 5, progress
    pattern = re.compile(
        r"^progress: (\d+) of (\d+) reads \((\d+) %\), \d+\.\d calls/s, (\d+) failed( so far)?, "
        r"(about .+ left|done in .+)$"
    )
    parsed = [pattern.match(line) for line in progress]
    assert all(parsed), progress
    assert [int(m[2]) for m in parsed if m] == [reads] * len(progress)
    assert progress[-1].startswith(f"progress: {reads} of {reads} reads (100 %)")
    assert ", 1 failed, done in " in progress[-1]
    # Subjects that went plainly have no line of their own; the one that failed is named as it happens.
    subject_lines = [line for line in lines if line.startswith("[")]
    assert len(subject_lines) == 1 and "keyword report failed" in subject_lines[0]
    assert len(lines) < 30
