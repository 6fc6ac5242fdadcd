"""A Trust Map with one unusable row, served over real HTTP in front of the sandbox.

The sandbox is faithful to the spec and never sends such a row; a tester met one from the real service:
a referring "domain" that is a spreadsheet formula, with no DR and a link type and status nobody knows.
``MapInFront`` is a small HTTP server on 127.0.0.1 that passes every request on to the sandbox and back,
except a Trust Map's answer, whose referring domains it cuts to the first three and then adds that row:
four rows, three usable.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

#: The row the tester found (as the service wrote it).
HOSTILE_ROW: dict[str, Any] = {
    "domain": "=cmd|' /C calc'!A0",
    "dr": None,
    "backlinks": 12,
    "linkType": "sponsored-ish",
    "status": "pending-review",
    "importance": 3.5,
    "spamScore": 20.0,
}
USABLE_ROWS = 3
#: Headers passed back from the sandbox (the quota headers the sidebar shows, the body's type).
_PASSED_BACK = ("content-type", "x-api-quota-limit", "x-api-quota-remaining", "x-api-tier", "retry-after")


def with_hostile_row(body: dict[str, Any]) -> dict[str, Any]:
    """The sandbox's Trust Map answer with its first three referring domains and the hostile row."""
    answer = json.loads(json.dumps(body))
    answer["map"]["domains"] = [*answer["map"]["domains"][:USABLE_ROWS], HOSTILE_ROW]
    return answer


def _handler(upstream: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _pass_on(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {
                k: v for k, v in self.headers.items() if k.lower() in ("authorization", "content-type")
            }
            answer = httpx.request(
                self.command, upstream + self.path, headers=headers, content=body, timeout=30
            )
            content = answer.content
            if answer.status_code == 200 and self.path.split("?")[0].startswith("/api/v1/map/"):
                content = json.dumps(with_hostile_row(answer.json())).encode()
            self.send_response(answer.status_code)
            for name in _PASSED_BACK:
                if name in answer.headers:
                    self.send_header(name, answer.headers[name])
            self.send_header("content-length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = do_DELETE = _pass_on

        def log_message(self, *_args: object) -> None:
            pass

    return Handler


@contextmanager
def map_in_front(upstream: str) -> Iterator[str]:
    """The base URL of a server on 127.0.0.1 in front of ``upstream`` (the sandbox's base URL)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(upstream.rstrip("/")))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
