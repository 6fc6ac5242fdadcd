"""A browser's Streamlit session without the browser: one WebSocket speaking Streamlit's own protobuf
messages, for load benchmarks that need many sessions on two cores (a Chromium context costs more CPU
and memory than the server it is measuring).

A session opens ``/_stcore/stream`` (subprotocol ``streamlit``) as the browser does, asks for a page
with a rerun ``BackMsg`` (the page's URL path, its query string and, once known, its script hash) and
reads ``ForwardMsg`` until the run's ``script_finished``: that is one page run, timed from the request
to the finish. A run is an error when it shows an exception element, ends other than successfully,
asks for a page that does not exist, or does not finish in time. Switching pages is another rerun in
the same session, as a click in the sidebar is.

Behind nginx a session first GETs the page, as a browser does, and keeps the ``adash_route`` cookie
the answer sets (deploy/nginx: the cookie is what keeps a browser on one app process); its WebSocket
carries that cookie.
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any, Self

from google.protobuf import text_format
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

#: nginx's sticky-session cookie (deploy/nginx/authority-dashboard.conf).
ROUTE_COOKIE = "adash_route"
SUCCESS = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY
COMPILE_ERROR = ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR
EARLY_FOR_RERUN = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN


@dataclass
class PageRun:
    """One script run a session asked for: how long it took and how it ended."""

    page: str
    query: str
    seconds: float
    #: "ok", or why the run counts as an error: "exception", "compile error", "page not found",
    #: "timeout", "connection closed".
    outcome: str
    elements: list[Any] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    def text(self) -> str:
        """Everything the run drew, as protobuf text (labels, values, markdown, chart specs)."""
        return "\n".join(text_format.MessageToString(element, as_utf8=True) for element in self.elements)


def route_cookie(base_url: str, path: str = "", query: str = "") -> str | None:
    """GET the page as a browser's first request does; the route cookie nginx set, if any."""
    url = f"{base_url}/{path}" + (f"?{query}" if query else "")
    with urllib.request.urlopen(url, timeout=30) as response:
        response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            morsel = SimpleCookie(header).get(ROUTE_COOKIE)
            if morsel is not None:
                return morsel.value
    return None


class StreamlitSession:
    """One live session on a Streamlit server; ``async with StreamlitSession.open(...)``."""

    def __init__(self, connection: ClientConnection) -> None:
        self._connection = connection
        #: URL path → page script hash, from the app's navigation message.
        self.page_hashes: dict[str, str] = {}
        #: (URL path, widget key) → the widget id of a text field that page drew.
        self.text_input_ids: dict[tuple[str, str], str] = {}

    @classmethod
    async def open(cls, base_url: str, *, cookie: str | None = None) -> StreamlitSession:
        """Connect to ``base_url``'s stream, with nginx's route cookie when given."""
        headers = {"Cookie": f"{ROUTE_COOKIE}={cookie}"} if cookie else {}
        url = base_url.replace("http://", "ws://", 1) + "/_stcore/stream"
        connection = await connect(
            url,
            subprotocols=[Subprotocol("streamlit")],
            additional_headers=headers,
            max_size=None,
            open_timeout=30,
        )
        return cls(connection)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._connection.close()

    async def run(
        self,
        page: str = "",
        query: str = "",
        *,
        typed: Mapping[str, str] | None = None,
        timeout_s: float = 60,
    ) -> PageRun:
        """Ask for ``page`` (its URL path, "" for the default page) with ``query``; wait for the run.

        ``typed`` maps a text field's widget key to what the user typed into it (a field ``page`` drew
        in an earlier run of this session), as pressing Enter in that field reruns the page."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = query
        state.page_name = page
        state.page_script_hash = self.page_hashes.get(page, "")
        for key, value in (typed or {}).items():
            widget = state.widget_states.widgets.add()
            widget.id = self.text_input_ids[(page, key)]
            widget.string_value = value
        started = time.perf_counter()
        await self._connection.send(message.SerializeToString())
        try:
            outcome, elements = await asyncio.wait_for(self._until_finished(page), timeout_s)
        except TimeoutError:
            outcome, elements = "timeout", []
        except (ConnectionClosed, OSError):
            outcome, elements = "connection closed", []
        return PageRun(page, query, time.perf_counter() - started, outcome, elements)

    async def _until_finished(self, page: str) -> tuple[str, list[Any]]:
        """Read until the asked run finishes; what came before its start belongs to an earlier run."""
        started = False
        elements: list[Any] = []
        problem = ""
        while True:
            message = ForwardMsg()
            message.ParseFromString(await self._connection.recv())
            kind = message.WhichOneof("type")
            if kind == "new_session":
                started, elements, problem = True, [], ""  # a run starts (again, after an st.rerun)
            elif kind == "navigation":
                for app_page in message.navigation.app_pages:
                    self.page_hashes[app_page.url_pathname] = app_page.page_script_hash
            elif not started:
                continue
            elif kind == "page_not_found":
                problem = "page not found"
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                element = message.delta.new_element
                elements.append(element)
                element_kind = element.WhichOneof("type")
                if element_kind == "exception" and not problem:
                    problem = "exception"
                elif element_kind == "text_input":  # ids read "$$ID-<hash>-<key>"
                    self.text_input_ids[(page, element.text_input.id.split("-", 2)[-1])] = (
                        element.text_input.id
                    )
            elif kind == "script_finished":
                if message.script_finished == EARLY_FOR_RERUN:
                    continue  # st.rerun: the run goes on
                if message.script_finished == COMPILE_ERROR:
                    problem = "compile error"  # shown as an exception element too
                elif message.script_finished != SUCCESS:
                    problem = problem or f"finished with status {message.script_finished}"
                return problem or "ok", elements
