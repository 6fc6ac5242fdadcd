"""What every benchmark needs: a sandbox and the app in their own processes, a browser, figures.

Everything listens on 127.0.0.1 only. Processes are started with free ports and stopped on exit,
so a run leaves nothing behind. Figures are printed one per line as ``name: value unit``, with the
ratio to a baseline measured side by side in the same run (machines here are noisy: absolute times
mean little, ratios travel).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bench.chromium import launch as launch_chromium

ROOT = Path(__file__).resolve().parents[1]
DEMO_KEY = "vdr_demo"
#: Where the app keeps its history (the store's setting; see store/config.py).
DATABASE_ENV = "DASHBOARD_DATABASE_URL"


#: What a page draws on its first view, which sets the floor P3 holds its cold paint against: a plotly
#: chart (the stack floor page), a data grid but no chart (the table floor page), or neither (the bare
#: page). tests/apptest/test_bench_pages.py checks each page's class against what it draws.
Draws = Literal["chart", "table", "text"]


@dataclass(frozen=True)
class PageVisit:
    """A page as a benchmark opens it: URL path and query, and what shows it has rendered."""

    name: str
    path: str
    query: str = ""
    ready: str = ".js-plotly-plot .main-svg"
    #: What the page draws on its first view as a benchmark opens it (Live mode against the sandbox,
    #: an empty history database).
    draws: Draws = "chart"
    #: The page's title in the sidebar navigation (for page switches); empty for a second view of a page.
    title: str = ""
    #: The page's own heading when it differs from its sidebar title.
    heading: str = ""

    def url(self, base: str) -> str:
        return f"{base}/{self.path}" + (f"?{self.query}" if self.query else "")

    def fresh(self, selector: str) -> str:
        """``selector`` in an element of the current run: Streamlit keeps the last page's elements
        (marked stale) on screen until the new run replaces them, and they must not count. Layout
        blocks (tabs) carry no such mark: they are taken as they are."""
        return selector if "stTabs" in selector else f'[data-stale="false"] {selector}'

    @property
    def shown_heading(self) -> str:
        return self.heading or self.title


#: Every page with the view a marketer opens first. Extend this list when a page lands.
PAGE_VISITS: tuple[PageVisit, ...] = (
    # The default page lives at the root: "/overview" is "Page not found" (a dialog over the main page).
    PageVisit("overview", "", "domain=stripe.com", title="Domain overview"),
    PageVisit("overview-compare", "", "compare=true&domains=stripe.com%0Ahubspot.com%0Aexample.com"),
    PageVisit("trust-map", "trust-map", "domain=stripe.com", title="Trust Map"),
    PageVisit(
        "site-check",
        "site-check",
        "domain=example.com",
        ready='[data-testid="stButton"]',
        title="Site check",
        draws="text",
    ),
    PageVisit(
        "bulk-dr", "bulk-dr", "", ready='[data-testid="stTextArea"]', title="Bulk DR checker", draws="text"
    ),
    PageVisit(
        "badges",
        "badges",
        "domain=stripe.com",
        ready='[data-testid="stCode"]',
        title="Badges & snippets",
        draws="text",
    ),
    PageVisit(
        "categories", "categories", "", ready='[data-testid="stDataFrame"]', title="Categories", draws="table"
    ),
    PageVisit(
        "keyword-research",
        "keyword-research",
        "keyword=crm+software&domain=example.com",
        title="Keyword research",
    ),
    PageVisit(
        "keyword-suggestions", "keyword-suggestions", "domain=hubspot.com", title="Keyword suggestions"
    ),
    PageVisit(
        "tracked-keywords",
        "tracked-keywords",
        "domain=example.com",
        ready='[data-testid="stDataFrame"]',
        title="Tracked keywords",
        draws="table",
    ),
    PageVisit("discover", "discover", "", title="Discover sites", heading="Discover trusted sites"),
    PageVisit(
        "exchanges",
        "exchanges",
        "domain=example.com",
        ready='[data-testid="stDataFrame"]',
        title="Link exchanges",
        draws="table",
    ),
    PageVisit("my-sites", "my-sites", "", title="My sites"),
    PageVisit("site", "site", "domain=example.com", title="Site details"),
    PageVisit("ai-visibility", "ai-visibility", "domain=example.com", title="AI visibility"),
    PageVisit("search-console", "search-console", "domain=example.com", title="Search Console"),
    PageVisit("monitor", "monitor", "", title="Monitor"),
    # A benchmark's history database starts empty: the History page says how it fills (no chart yet).
    PageVisit("history", "history", "", ready='[data-testid="stTabs"]', title="History", draws="text"),
    # A benchmark's history watches no keyword: the Market page says how to start.
    PageVisit("market", "market", "", ready='[data-testid="stAlert"]', title="Market", draws="text"),
    # A benchmark's history holds no site of its own yet: the Reports page says how they get there.
    PageVisit("reports", "reports", "", ready='[data-testid="stAlert"]', title="Reports", draws="text"),
    # A benchmark's history holds no alerts: the Open tab says so.
    PageVisit("alerts", "alerts", "", ready='[data-testid="stTabs"]', title="Alerts", draws="text"),
    # A benchmark's history database starts empty: the Activity page says what will appear there.
    PageVisit("activity", "activity", "", ready='[data-testid="stAlert"]', title="Activity", draws="text"),
    PageVisit("coach", "coach", "domain=example.com", title="Coach"),
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_json(url: str, method: str = "GET", body: Any = None, timeout: float = 10) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"null")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def wait_until_ready(proc: subprocess.Popen[Any], url: str, *, within_s: float, name: str) -> None:
    """Poll ``url`` until it answers 200 (a server's health or discovery page): RuntimeError when
    ``proc`` exits first (with what it wrote to a piped stderr), the last OSError after ``within_s``."""
    deadline = time.monotonic() + within_s
    while True:
        if proc.poll() is not None:
            said = proc.stderr.read() if proc.stderr else ""
            said = said.decode(errors="replace") if isinstance(said, bytes) else said
            raise RuntimeError(f"{name} exited during start-up{': ' + said.strip() if said else ''}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def stop_process(proc: subprocess.Popen[Any], timeout: float = 10) -> None:
    """Terminate ``proc`` (if still running), killing it when it does not stop within ``timeout``."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)


@contextlib.contextmanager
def serving(proc: subprocess.Popen[Any], health_url: str, *, within_s: float, name: str) -> Iterator[None]:
    """While the block runs, ``proc`` serving (its ``health_url`` answered 200 within ``within_s``);
    stopped when the block ends, whether it started or not."""
    try:
        wait_until_ready(proc, health_url, within_s=within_s, name=name)
        yield
    finally:
        stop_process(proc)


@dataclass
class SandboxProcess:
    proc: subprocess.Popen[str]
    base_url: str

    def stats(self) -> dict[str, Any]:
        return http_json(f"{self.base_url}/_sandbox/stats")

    def counts(self) -> dict[tuple[str, str, str], int]:
        return {(r["method"], r["path"], r["query"]): r["count"] for r in self.stats()["requests"]}

    def total(self) -> int:
        return int(self.stats()["total"])

    def reset(self) -> None:
        http_json(f"{self.base_url}/_sandbox/reset", method="POST")


@contextlib.contextmanager
def sandbox_process(
    *, latency_ms: float = 0, rate_limit: float | None = None, quota: int = 100_000
) -> Iterator[SandboxProcess]:
    """``python -m sandbox`` on a free loopback port, stopped when the block ends."""
    args = [sys.executable, "-m", "sandbox", "--host", "127.0.0.1", "--port", str(free_port())]
    args += ["--latency-ms", str(latency_ms), "--quota", str(quota)]
    if rate_limit:
        args += ["--rate-limit", str(rate_limit)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "ready at" not in line:
            raise RuntimeError(f"sandbox did not start: {line!r}")
        yield SandboxProcess(proc, line.split("ready at ")[1].split()[0])
    finally:
        stop_process(proc)


@dataclass
class AppProcess:
    proc: subprocess.Popen[bytes]
    url: str

    @property
    def pid(self) -> int:
        return self.proc.pid

    def rss_mb(self) -> float:
        return rss_mb(self.proc.pid)


@contextlib.contextmanager
def app_process(
    script: str = "app.py",
    *,
    api_base: str | None = None,
    api_key: str | None = DEMO_KEY,
    extra: list[str] | None = None,
    log_path: Path | None = None,
    database_url: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[AppProcess]:
    """``streamlit run`` on a free loopback port; ``api_base`` set → Live mode against that sandbox.

    Its output goes to ``log_path`` when given (a test reads it), else nowhere. Its history database
    is ``database_url``, else the caller's ``DASHBOARD_DATABASE_URL``, else a new SQLite file in a
    temporary folder removed when the app stops: a benchmark never writes into the repository's data/.
    ``env`` adds settings of its own (a Redis URL, a cookie secret) on top of the caller's environment.
    """
    port = free_port()
    process_env = {**os.environ, **(env or {}), "VERIFIEDDR_API_KEY": api_key or ""}
    if api_base:
        process_env["VERIFIEDDR_API_BASE"] = api_base
    with contextlib.ExitStack() as history_folder:
        if database_url:
            process_env[DATABASE_ENV] = database_url
        elif not process_env.get(DATABASE_ENV):
            folder = Path(history_folder.enter_context(tempfile.TemporaryDirectory(prefix="bench-history-")))
            process_env[DATABASE_ENV] = f"sqlite:///{folder / 'history.sqlite3'}"
        yield from _served(script, process_env, port, extra, log_path)


def _served(
    script: str, env: dict[str, str], port: int, extra: list[str] | None, log_path: Path | None
) -> Iterator[AppProcess]:
    args = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true"]
    args += [
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
    ]
    args += ["--server.fileWatcherType", "none", *(extra or [])]
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(log_path.open("wb")) if log_path else subprocess.DEVNULL
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    with serving(proc, f"{url}/_stcore/health", within_s=60, name="streamlit"):
        yield AppProcess(proc, url)


def chromium() -> contextlib.AbstractContextManager[Any]:
    """Debian's headless Chromium through Playwright, launched as the browser tests launch it."""
    return launch_chromium()


def wait_until_idle(page: Any, timeout_ms: int = 30_000) -> None:
    """Until Streamlit has finished the current script run (its status widget is gone)."""
    page.wait_for_timeout(150)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=timeout_ms)


def open_and_time(page: Any, url: str, ready: str, timeout_ms: int = 60_000) -> float:
    """Seconds from navigation until ``ready`` is visible."""
    started = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.locator(ready).first.wait_for(state="visible", timeout=timeout_ms)
    return time.perf_counter() - started


@dataclass
class Figures:
    """Collects and prints figures; ``failures`` lists targets that were missed."""

    failures: list[str] = field(default_factory=list)

    def show(
        self, name: str, value: float, unit: str, *, baseline: float | None = None, base: str = ""
    ) -> None:
        line = f"{name}: {value:.3f} {unit}"
        if baseline:
            line += f" (ratio {value / baseline:.2f} vs {base or 'baseline'} {baseline:.3f} {unit})"
        print(line, flush=True)

    def target(self, name: str, ok: bool, detail: str) -> None:
        print(f"{name}: {'met' if ok else 'MISSED'} ({detail})", flush=True)
        if not ok:
            self.failures.append(name)

    def exit_code(self) -> int:
        return 1 if self.failures else 0
