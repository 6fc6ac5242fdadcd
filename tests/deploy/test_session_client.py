"""The load benchmark's session client goes through nginx as a browser does: its first GET receives the
route cookie, and its WebSocket, carrying that cookie, reaches the process that answered the GET (else
its page runs would land on a process that never served its page)."""

from __future__ import annotations

import asyncio
import time

from rigs.deployment import Front, Route
from rigs.streamlit_session import PageRun, StreamlitSession, route_cookie


def _stream_routes(front: Front, route: str) -> list[Route]:
    """The requests logged under ``route`` once its WebSocket is logged (when it closes)."""
    deadline = time.monotonic() + 15
    while True:
        found = [r for r in front.routes() if r.route == route]
        if any(r.path.startswith("/_stcore/stream") for r in found) or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_a_session_through_nginx_keeps_its_route_and_is_served(front: Front) -> None:
    cookie = route_cookie(front.url, "", "domain=stripe.com")
    assert cookie

    async def browse() -> list[PageRun]:
        async with await StreamlitSession.open(front.url, cookie=cookie) as session:
            return [
                await session.run("", "domain=stripe.com"),
                await session.run("keyword-suggestions", "domain=stripe.com"),
            ]

    runs = asyncio.run(browse())
    assert all(run.ok for run in runs), [run.outcome for run in runs]
    assert "stripe\\\\.com — Stripe" in runs[0].text()
    served = _stream_routes(front, cookie)
    streams = [r for r in served if r.path.startswith("/_stcore/stream")]
    assert streams and all(r.status == 101 for r in streams), served
    assert len({r.served_by for r in served}) == 1, served  # the GET and the WebSocket: one process
