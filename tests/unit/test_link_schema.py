"""The link schema has one home (``analysis.links``): the page registry's paths are its paths, the
History and Market pages open the tabs its links name, and no page spells a link's parameter itself."""

from __future__ import annotations

import re
from pathlib import Path

from analysis import links
from components.core.nav import pages
from components.history import widgets as history_widgets
from components.market import widgets as market_widgets

ROOT = Path(__file__).resolve().parents[2]
PARAMS = [
    value
    for name, value in vars(links).items()
    if name.endswith("_PARAM") and isinstance(value, str) and value.startswith(("history_", "market_"))
]


def test_the_pages_are_where_the_links_point() -> None:
    assert pages.HISTORY.url_path == links.HISTORY_PATH
    assert pages.MARKET.url_path == links.MARKET_PATH
    assert pages.ALERTS.url_path == links.ALERTS_PATH


def test_every_linked_tab_is_a_tab_of_its_page() -> None:
    history_tabs = {
        history_widgets.DOMAIN_TAB,
        history_widgets.CHURN_TAB,
        history_widgets.KEYWORD_TAB,
        history_widgets.WATCHLIST_TAB,
    }
    assert {tab for _param, tab in links.CHARTS.values()} <= history_tabs
    assert history_widgets.TAB_KEY == links.TAB_PARAM
    market_tabs = {market_widgets.VISIBILITY_TAB, market_widgets.CHURN_TAB}
    assert set(links.MARKET_CHARTS.values()) == market_tabs
    assert market_widgets.TAB_KEY == links.MARKET_TAB_PARAM


def test_no_page_spells_a_link_parameter() -> None:
    assert len(PARAMS) >= 14
    names = "|".join(PARAMS)
    spelled = re.compile(r"query_params(?:\.get\(|\[|\.pop\()\s*[\"'](" + names + r")[\"']")
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for folder in ("components", "views")
        for path in (ROOT / folder).rglob("*.py")
        for match in spelled.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []
