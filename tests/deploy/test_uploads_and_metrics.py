"""What a signed-out visitor can reach outside the app's sign-in gate, through the shipped nginx config
in front of a real app process: Streamlit's upload endpoint (a session is all it asks for, and any
visitor's browser opens one) and its metrics.

- The app process itself refuses a file over ``server.maxUploadSize`` (.streamlit/config.toml).
- nginx refuses a larger body before the app sees it, and answers a burst of uploads from one address
  with 429; ``/_stcore/metrics`` is closed; health and the app still answer.

Each test gets an nginx of its own (the upload rate is counted per nginx), in front of one app process
in Live mode against the session sandbox, with a history file of its own.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from rigs.deployment import NGINX, Front, nginx_front
from rigs.processes import AppProcess, app_process
from sandbox import SandboxServer

MIB = 1024 * 1024
#: nginx's session cookie and Streamlit's XSRF cookie (its upload endpoint checks the second).
ROUTE_COOKIE, XSRF_COOKIE = "adash_route", "_streamlit_xsrf"


@pytest.fixture(scope="module")
def app(sandbox: SandboxServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    log = tmp_path_factory.mktemp("app") / "app.log"
    with app_process(api_base=sandbox.base_url, log_path=log) as running:
        yield running


@pytest.fixture
def front(app: AppProcess, tmp_path: Path) -> Iterator[Front]:
    if not os.path.exists(NGINX):
        pytest.fail(f"The deployment tests need Debian's nginx at {NGINX}: apt-get install -y nginx-light")
    port = int(app.url.rsplit(":", 1)[1])
    with nginx_front(tmp_path / "nginx", [port]) as running:
        yield running


@dataclass(frozen=True)
class Visitor:
    """A signed-out browser's session: what an upload needs (its cookies, its session id)."""

    base_url: str
    cookies: dict[str, str]
    session_id: str

    def upload(self, size: int) -> int:
        """PUT a file of ``size`` bytes as the browser's uploader does; the HTTP status."""
        url = f"{self.base_url}/_stcore/upload_file/{self.session_id}/{uuid.uuid4()}"
        body = (b"example.com\n" * (size // 12 + 1))[:size]
        answer = httpx.put(
            url,
            files={"file": ("domains.txt", body, "text/plain")},
            cookies=self.cookies,
            headers={"X-Xsrftoken": self.cookies.get(XSRF_COOKIE, "")},
            timeout=60,
        )
        return answer.status_code


@contextmanager
def visitor(base_url: str) -> Iterator[Visitor]:
    """A session as a signed-out browser opens one: a GET (cookies), the WebSocket, a first page run."""
    first = httpx.get(f"{base_url}/_stcore/health", timeout=30)
    assert first.status_code == 200, first.text
    cookies = {name: value for name, value in first.cookies.items() if name in (ROUTE_COOKIE, XSRF_COOKIE)}
    assert XSRF_COOKIE in cookies
    header = "; ".join(f"{name}={value}" for name, value in cookies.items())
    stream = base_url.replace("http://", "ws://", 1) + "/_stcore/stream"
    with connect(stream, subprotocols=["streamlit"], additional_headers={"Cookie": header}) as ws:
        ask = BackMsg()
        ask.rerun_script.query_string = ""
        ws.send(ask.SerializeToString())
        while True:
            message = ForwardMsg()
            message.ParseFromString(ws.recv(timeout=60))
            if message.WhichOneof("type") == "new_session":
                break
        yield Visitor(base_url, cookies, message.new_session.initialize.session_id)


def test_the_app_itself_refuses_a_file_over_its_upload_limit(app: AppProcess) -> None:
    """Straight to the app process, no nginx: the bulk checker's list fits, 3 MiB does not."""
    with visitor(app.url) as browser:
        assert browser.upload(900_000) == 204  # the largest list the bulk checker reads (1 MB) fits
        assert browser.upload(3 * MIB) == 413


def test_nginx_refuses_an_oversized_upload_before_the_app_sees_it(front: Front) -> None:
    with visitor(front.url) as browser:
        assert browser.upload(100_000) == 204
        assert browser.upload(4 * MIB) == 413
    refused = [r for r in front.routes() if r.path.startswith("/_stcore/upload_file") and r.status == 413]
    assert refused and all(r.upstream == "-" for r in refused), front.routes()  # nginx answered itself


def test_a_burst_of_uploads_from_one_address_is_slowed_to_429(front: Front) -> None:
    statuses: list[int] = []
    with visitor(front.url) as browser:
        while len(statuses) < 60 and 429 not in statuses:
            statuses.append(browser.upload(2_000))
    assert statuses[0] == 204  # a person's upload goes through
    assert statuses.count(204) >= 5, statuses  # and so do a few in a row
    assert 429 in statuses, statuses
    # The app still answers others meanwhile: the limit is on uploads only.
    assert httpx.get(f"{front.url}/_stcore/health", timeout=30).text == "ok"


@pytest.mark.parametrize("path", ["/_stcore/metrics", "/_stcore/metrics/", "/_stcore/%6Detrics"])
def test_metrics_are_closed_and_health_and_the_app_still_answer(front: Front, path: str) -> None:
    assert httpx.get(f"{front.url}{path}", timeout=30).status_code == 404
    health = httpx.get(f"{front.url}/_stcore/health", timeout=30)
    assert health.status_code == 200 and health.text == "ok"
    page = httpx.get(f"{front.url}/", timeout=30)
    assert page.status_code == 200 and "<html" in page.text.lower()
