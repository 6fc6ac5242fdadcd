"""Two people with different keys on one server never see each other's owner-scoped data, not even
through the shared ``st.cache_data``; and changing the key in a session drops what the old key fetched.

Both AppTest sessions run in this process, so they share one cache, as two browsers on one server do.
"""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from client import ApiClient
from components.core.cache.connection import DEMO_ACCOUNT_KEY, SESSION_KEY_KEY
from components.core.ui.sidebar import RESULT_PREFIX
from sandbox import DEMO_KEY, FREE_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.apptest.app_pages import empty_caches, open_page

DEMO_SITES = set(ACCOUNTS[DEMO_KEY].sites)
FREE_SITES = set(ACCOUNTS[FREE_KEY].sites)
DEMO_SITE = ACCOUNTS[DEMO_KEY].sites[0]
#: Where the Bulk DR page keeps its last run (components/research/widgets/bulk.py LAST_RUN).
BULK_RUN = RESULT_PREFIX + "bulk_dr_last_run"
FREE_SITE = ACCOUNTS[FREE_KEY].sites[0]


def _session(page: str, *, key: str | None = None, **query: str) -> AppTest:
    """A browser session on ``page``; ``key`` typed into the sidebar's session-key field."""
    at = open_page(page, **query)
    if key is not None:
        at.sidebar.text_input(key=SESSION_KEY_KEY).input(key).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _frame_column(at: AppTest, column: str) -> set[str]:
    """Every value of ``column`` in the tables on screen."""
    values: set[str] = set()
    for df in at.dataframe:
        frame: pd.DataFrame = df.value
        if column in frame.columns:
            values |= set(frame[column].dropna().astype(str))
    return values


def _screen(at: AppTest) -> str:
    kinds = (at.markdown, at.caption, at.info, at.warning, at.error, at.metric, at.subheader, at.title)
    parts = [str(getattr(e, "value", "")) for kind in kinds for e in kind]
    parts += [df.value.to_csv() for df in at.dataframe]
    return "\n".join(parts)


def test_my_sites_shows_only_the_keys_own_sites(live_env: SandboxServer) -> None:
    first = _session("views/my-sites.py")
    second = _session("views/my-sites.py", key=FREE_KEY)
    again = _session("views/my-sites.py")  # after the free key's answer is in the shared cache
    assert _frame_column(first, "domain") == DEMO_SITES
    assert _frame_column(second, "domain") == FREE_SITES
    assert _frame_column(again, "domain") == DEMO_SITES
    assert not any(site in _screen(second) for site in DEMO_SITES)


def test_tracked_keywords_never_cross_keys(live_env: SandboxServer) -> None:
    with ApiClient(live_env.base_url, DEMO_KEY) as demo, ApiClient(live_env.base_url, FREE_KEY) as free:
        demo.add_tracked_keyword(DEMO_SITE, "isolation marker demo")
        free.add_tracked_keyword(FREE_SITE, "isolation marker free")
    owner = _session("views/tracked-keywords.py", site=DEMO_SITE)
    assert "isolation marker demo" in _screen(owner)
    # The free key asks for the demo key's site by URL: it is not one of its sites.
    intruder = _session("views/tracked-keywords.py", key=FREE_KEY, site=DEMO_SITE)
    intruder.run()  # the URL's site is read again with the session key in place
    seen = _screen(intruder)
    assert "isolation marker demo" not in seen
    assert "isolation marker free" in seen
    assert "isolation marker free" not in _screen(_session("views/tracked-keywords.py", site=DEMO_SITE))


def test_monitor_covers_only_the_keys_own_sites(live_env: SandboxServer) -> None:
    demo = _session("views/monitor.py")
    free = _session("views/monitor.py", key=FREE_KEY)
    assert _frame_column(demo, "domain") and _frame_column(demo, "domain") <= DEMO_SITES
    assert _frame_column(free, "domain") == FREE_SITES
    assert not _frame_column(_session("views/monitor.py"), "domain") & FREE_SITES


def test_another_keys_site_export_is_refused(live_env: SandboxServer) -> None:
    owner = _session("views/site.py", domain=DEMO_SITE, site_tab="Export")
    assert [b for b in owner.get("download_button")], "the owner sees the export"
    intruder = _session("views/site.py", key=FREE_KEY, domain=DEMO_SITE, site_tab="Export")
    intruder.run()
    assert not intruder.get("download_button"), "another key's export was offered"
    assert intruder.info or intruder.warning or intruder.error, "the refusal is explained"


def test_changing_the_session_key_drops_the_old_keys_results(live_env: SandboxServer) -> None:
    at = _session("views/bulk-dr.py")
    at.text_area(key="bulk_domains").input(DEMO_SITE).run()
    at.button(key="bulk_start").click().run()
    assert BULK_RUN in at.session_state
    assert _frame_column(at, "domain") == {DEMO_SITE}

    at.sidebar.text_input(key=SESSION_KEY_KEY).input(FREE_KEY).run()
    assert not at.exception
    assert BULK_RUN not in at.session_state
    assert not _frame_column(at, "domain"), "the old key's run is still on screen"

    at.switch_page("views/my-sites.py").run()
    assert _frame_column(at, "domain") == FREE_SITES


def test_changing_the_demo_account_shows_the_new_accounts_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERIFIEDDR_API_KEY", raising=False)
    monkeypatch.delenv("VERIFIEDDR_API_BASE", raising=False)
    empty_caches()
    at = open_page("views/my-sites.py")
    assert _frame_column(at, "domain") == DEMO_SITES
    at.session_state[RESULT_PREFIX + "isolation_probe"] = "fetched with the demo account"
    at.sidebar.selectbox(key=DEMO_ACCOUNT_KEY).select(FREE_KEY).run()
    assert not at.exception
    assert _frame_column(at, "domain") == FREE_SITES
    assert RESULT_PREFIX + "isolation_probe" not in at.session_state
