"""The Opportunities page's table as a test reads it, choosing its rows as a person ticks their boxes, and
tracking them for northwind-coffee.com (what the service holds, its POSTs, the audit rows): shared by the
page's AppTest modules."""

from __future__ import annotations

from typing import Any

import pandas as pd
from streamlit.testing.v1 import AppTest

from client import ApiClient
from client.inputs import slug_for
from client.settings import key_fingerprint
from components.opportunities.widgets.table import table_key
from components.opportunities.widgets.tracking import TRACK_KEY
from sandbox import DEMO_KEY, SandboxServer
from store import HistoryStore
from tests.apptest.app_pages import open_page

ACCOUNT = key_fingerprint(DEMO_KEY)
PAGE = "views/opportunities.py"
SITE = "northwind-coffee.com"
SLUG = slug_for(SITE)
KEYWORDS_PATH = f"/api/v1/sites/{SLUG}/keywords"


def opportunities_table(at: AppTest) -> pd.DataFrame:
    found = [frame.value for frame in at.dataframe if "score" in frame.value.columns]
    assert found, "no opportunities table"
    return found[0]


def choose_rows(at: AppTest, rows: list[int]) -> AppTest:
    """Tick the boxes of ``rows`` (positions in the table as shown), then run."""
    key = table_key(list(opportunities_table(at)["keyword"]))
    at.session_state[key] = {"selection": {"rows": rows, "columns": [], "cells": []}}
    return at.run()


def tracked(server: SandboxServer) -> list[str]:
    """The site's tracked keywords as the service holds them."""
    with ApiClient(server.base_url, DEMO_KEY) as client:
        return [k.keyword for k in client.tracked_keywords(SLUG).keywords]


def posts(server: SandboxServer) -> int:
    return server.state.count("POST", KEYWORDS_PATH)


def audit_rows(store: HistoryStore) -> pd.DataFrame:
    return store.audit.events(ACCOUNT, operation="add_tracked_keyword")


def open_on_site() -> AppTest:
    """The page opened by its address on the site (``?site=northwind-coffee.com``)."""
    at = open_page(PAGE, site=SITE)
    assert not at.exception, [e.value for e in at.exception]
    return at


def fresh_rows(
    at: AppTest, server: SandboxServer, count: int = 2, held_now: list[str] | None = None
) -> tuple[list[int], list[str]]:
    """The first ``count`` rows of the table whose keyword the site does not track yet (``held_now``,
    else as the service says now)."""
    held = {k.casefold() for k in (tracked(server) if held_now is None else held_now)}
    keywords = list(opportunities_table(at)["keyword"])
    rows = [i for i, keyword in enumerate(keywords) if keyword.casefold() not in held][:count]
    assert len(rows) == count, keywords
    return rows, [keywords[i] for i in rows]


def track_button(at: AppTest) -> Any:
    return at.button(key=TRACK_KEY)


def forged_click(at: AppTest) -> AppTest:
    """A click on the Track button drawn disabled, as a hand-made browser message would send it."""
    button = track_button(at)
    assert button.disabled
    button._value = True
    return at.run()
