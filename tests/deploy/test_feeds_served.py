"""Spreadsheet feeds over HTTP, as Google Sheets' IMPORTDATA fetches them: from the single app process
(the default set-up, .streamlit/config.toml's static serving) and through the shipped nginx config in
front of it. A live feed answers its CSV (``text/csv``, no header row, exactly the file the refresh
wrote) without any cookie or sign-in; a revoked feed, an unknown token and the folder itself answer 404.
Through nginx a feed is also never cached (``no-store``) nor readable by another site's page (no
wildcard CORS), and nothing else in the static folder is served (Streamlit's own static server cannot be
told either).

The app runs from a folder of the test's own whose ``app.py`` and ``views`` are links to the
repository's, so Streamlit serves that folder's ``static/`` (never the repository's) and the test's
feeds are written there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import httpx
import pytest

from client.settings import key_fingerprint
from rigs.deployment import NGINX, nginx_front
from rigs.processes import ROOT, app_process
from sandbox import DEMO_KEY, SandboxServer
from services.reports.feeds import refresh_feeds
from store import HistoryStore
from tests.store.samples import lookup

ACCOUNT = key_fingerprint(DEMO_KEY)
DAY = date(2025, 1, 6)


@dataclass(frozen=True)
class Served:
    app_url: str
    front_url: str
    feeds: Path
    database: str


@pytest.fixture(scope="module")
def served(sandbox: SandboxServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    if not os.path.exists(NGINX):
        pytest.fail(f"The deployment tests need Debian's nginx at {NGINX}: apt-get install -y nginx-light")
    root = tmp_path_factory.mktemp("app-root")
    for name in ("app.py", "views"):
        (root / name).symlink_to(ROOT / name)
    database = f"sqlite:///{root / 'history.sqlite3'}"
    HistoryStore.open(database).close()
    with app_process(
        str(root / "app.py"), api_base=sandbox.base_url, log_path=root / "app.log", database_url=database
    ) as app:
        port = int(app.url.rsplit(":", 1)[1])
        with nginx_front(tmp_path_factory.mktemp("nginx"), [port]) as front:
            yield Served(app.url, front.url, root / "static" / "feeds", database)


def _get(url: str) -> httpx.Response:
    """As IMPORTDATA asks: a plain GET, no cookie, no header of ours."""
    return httpx.get(url, timeout=30)


def test_a_feed_is_served_by_the_app_and_through_nginx_until_revoked(served: Served) -> None:
    with HistoryStore.open(served.database) as store:
        for offset in range(3):
            store.snapshots.record_lookup(
                ACCOUNT, lookup("example.com", dr=40 + offset), DAY.replace(day=4 + offset), "job"
            )
        feed = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example")
        assert refresh_feeds(store, served.feeds, today=DAY).written == 1
    written = (served.feeds / feed.file_name).read_bytes().decode("utf-8")  # CRLF rows, as served
    assert written.splitlines()[0].startswith("2025-01-04,example.com,40,")  # data, no header row

    for base in (served.app_url, served.front_url):
        answer = _get(f"{base}/app/static/feeds/{feed.file_name}")
        assert answer.status_code == 200, base
        assert answer.headers["content-type"].startswith("text/csv")
        assert answer.text == written
        assert len(answer.text.splitlines()) == 3
        assert _get(f"{base}/app/static/feeds/{'x' * 43}.csv").status_code == 404
        assert _get(f"{base}/app/static/feeds/").status_code == 404

    with HistoryStore.open(served.database) as store:
        store.feeds.revoke_feed(ACCOUNT, feed.id, "ann@team.example")
        assert refresh_feeds(store, served.feeds, today=DAY).removed == 1
    for base in (served.app_url, served.front_url):
        assert _get(f"{base}/app/static/feeds/{feed.file_name}").status_code == 404, base


def test_through_nginx_a_feed_is_never_cached_or_shared_and_nothing_else_in_static_is_served(
    served: Served,
) -> None:
    with HistoryStore.open(served.database) as store:
        store.snapshots.record_lookup(ACCOUNT, lookup("example.com"), DAY, "job")
        feed = store.feeds.create_feed(ACCOUNT, "example.com", "ann@team.example")
        assert refresh_feeds(store, served.feeds, today=DAY).written == 1
    static = served.feeds.parent
    # What must never be served from the app's static folder: a refresh's half-written file (a dotfile),
    # a page that a browser would run as HTML, and any file beside the feeds' folder.
    (served.feeds / f".{feed.token}.part").write_text("half a file")
    (served.feeds / "page.html").write_text("<script>alert(1)</script>")
    (static / "page.html").write_text("<script>alert(1)</script>")
    (static / f"{feed.token}.csv").write_text("not a feed")

    answer = _get(f"{served.front_url}/app/static/feeds/{feed.file_name}")
    assert answer.status_code == 200
    assert answer.content == (served.feeds / feed.file_name).read_bytes()
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["cache-control"] == "no-store"
    assert "access-control-allow-origin" not in answer.headers
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "set-cookie" not in answer.headers  # a feed answer sets nothing, not even the route cookie

    preflight = httpx.request(
        "OPTIONS",
        f"{served.front_url}/app/static/feeds/{feed.file_name}",
        headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"},
        timeout=30,
    )
    assert "access-control-allow-origin" not in preflight.headers
    assert preflight.status_code >= 400
    for path in (
        f"feeds/.{feed.token}.part",
        "feeds/page.html",
        "page.html",
        f"{feed.token}.csv",
        f"feeds/{feed.file_name}/",
    ):
        refused = _get(f"{served.front_url}/app/static/{path}")
        assert refused.status_code == 404, path
        assert "access-control-allow-origin" not in refused.headers, path
