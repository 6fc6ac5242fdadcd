"""The load benchmark's session client (rigs/streamlit_session.py) really drives the app: over the
Streamlit WebSocket alone it opens a domain's overview and sees the run finish with the domain's card,
switches pages in the same session, and counts a run that shows an exception, fails to compile or asks
for a page that does not exist as an error, never as a page served."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from rigs.processes import AppProcess, app_process
from rigs.streamlit_session import PageRun, StreamlitSession, route_cookie
from sandbox import SandboxServer
from sandbox.catalog import KNOWN_SITES

OVERVIEW_HEADING = 'body: "Domain overview"'


@pytest.fixture(scope="module")
def app(sandbox: SandboxServer) -> Iterator[AppProcess]:
    """The app in Live mode against the session's sandbox."""
    with app_process(api_base=sandbox.base_url) as running:
        yield running


def _runs(url: str, *pages: tuple[str, str] | tuple[str, str, dict[str, str]]) -> list[PageRun]:
    """Each (URL path, query[, typed into text fields]) in turn, in one session."""

    async def browse() -> list[PageRun]:
        async with await StreamlitSession.open(url) as session:
            return [
                await session.run(page, query, typed=typed[0] if typed else None, timeout_s=60)
                for page, query, *typed in pages
            ]

    return asyncio.run(browse())


def test_the_overview_of_a_domain_finishes_with_its_card_and_the_session_switches_pages(
    app: AppProcess, sandbox: SandboxServer
) -> None:
    overview, trust_map, back = _runs(
        app.url, ("", "domain=stripe.com"), ("trust-map", "domain=stripe.com"), ("", "domain=stripe.com")
    )
    assert overview.ok, overview.outcome
    assert OVERVIEW_HEADING in overview.text()
    assert "stripe\\\\.com — Stripe" in overview.text()  # the card's title line, as markdown escapes it
    assert f'body: "{KNOWN_SITES["stripe.com"].dr}"' in overview.text()  # the DR metric
    assert trust_map.ok and 'body: "Trust Map"' in trust_map.text()
    assert OVERVIEW_HEADING not in trust_map.text()
    assert back.ok and OVERVIEW_HEADING in back.text()
    assert sandbox.state.total_requests() > 0  # the runs asked the service, as a browser's would


def test_a_domain_typed_into_the_overview_field_is_shown(app: AppProcess) -> None:
    """After Tracked keywords (which shows one of the account's own sites) the overview keeps that site
    until the marketer types another domain into its field: the load benchmark's domain switch."""
    first, _, back, typed = _runs(
        app.url,
        ("", "domain=stripe.com"),
        ("tracked-keywords", ""),
        ("", ""),
        ("", "domain=hubspot.com", {"domain": "hubspot.com"}),
    )
    assert first.ok and back.ok and typed.ok
    assert "hubspot\\\\.com — " in typed.text() and "hubspot" not in back.text()


def test_a_page_that_does_not_exist_is_an_error(app: AppProcess) -> None:
    (run,) = _runs(app.url, ("no-such-page", ""))
    assert not run.ok and run.outcome == "page not found"


@pytest.mark.parametrize(
    ("script", "outcome"),
    [('raise RuntimeError("the page broke")\n', "exception"), ("def broken(:\n", "compile error")],
)
def test_a_run_that_fails_is_an_error(tmp_path: Path, script: str, outcome: str) -> None:
    page = tmp_path / "failing_page.py"
    page.write_text(f"import streamlit as st\nst.title('About to fail')\n{script}")
    with app_process(str(page), api_key=None) as failing:
        (run,) = _runs(failing.url, ("", ""))
    assert not run.ok and run.outcome == outcome


def test_a_run_that_does_not_finish_in_time_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "slow_page.py"
    page.write_text("import time\nimport streamlit as st\nst.title('Slow')\ntime.sleep(30)\n")
    with app_process(str(page), api_key=None) as slow:

        async def browse() -> PageRun:
            async with await StreamlitSession.open(slow.url) as session:
                return await session.run(timeout_s=1)

        run = asyncio.run(browse())
    assert run.outcome == "timeout" and run.seconds < 5


def test_a_server_without_nginx_sets_no_route_cookie(app: AppProcess) -> None:
    assert route_cookie(app.url, "", "domain=stripe.com") is None
