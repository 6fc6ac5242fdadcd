"""Each rule's Chart link in real Chromium opens its evidence, the app in Sandbox mode on the demo history
with an alert of every rule (``tests.browser.evidence_demo``): from the Alerts page, the link of each
rule's card opens the History page on the alert's tab and window, and there the chart's "before" and
"after" points say, on hover, the values the alert compared; a Trust Map alert's churn compares its two
snapshots with its referring domain in the table's first row. The rules follow one another in one tab,
as a person reads their alerts: back to the Alerts page, the next card's link (two Trust Map alerts
carry the same evidence, so the second link is one the session has followed before). Screenshots go
to ``artifacts/``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Locator, Page

from rigs.processes import app_process
from tests.browser.evidence_demo import ALERTS, RuleAlert, demo_with_every_rule
from tests.browser.tabs import TIMEOUT_MS, BrowserProfile, ServedApp, as_shown, screenshot, settled

CARD = '[class*="st-key-alert_card_"]'
CHART = '[data-stale="false"] .js-plotly-plot'
GRID = '[data-testid="stDataFrame"] table[role=grid]'
#: How long a hover label or a table's first row may take to appear (polled, never slept).
EVIDENCE_DEADLINE_S = 60.0


@pytest.fixture(scope="module")
def evidence_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    """The app with no API key (Sandbox mode) on a store already holding the demo history and an alert
    of every rule (so the first visit seeds nothing)."""
    folder = tmp_path_factory.mktemp("evidence-app")
    url = f"sqlite:///{folder / 'history.sqlite3'}"
    demo_with_every_rule(url)
    log = folder / "streamlit.log"
    with pytest.MonkeyPatch.context() as env:
        env.delenv("VERIFIEDDR_API_BASE", raising=False)
        with app_process(api_key=None, database_url=url, log_path=log) as app:
            yield ServedApp(app.url, log)


def _follow_chart_link(page: Page, alert: RuleAlert) -> dict[str, str]:
    """On the Alerts page, click the Chart link of the alert's card; the link's query parameters."""
    card = page.locator(CARD).filter(has_text=as_shown(alert.title))
    card.first.wait_for(timeout=TIMEOUT_MS)
    link = card.first.get_by_role("link", name="Chart")
    query = {
        name: values[0] for name, values in parse_qs(urlsplit(link.get_attribute("href") or "").query).items()
    }
    link.click()
    page.wait_for_url(re.compile(r"/history\?"), timeout=TIMEOUT_MS)
    page.get_by_role("heading", name="History").first.wait_for(timeout=TIMEOUT_MS)
    settled(page)
    return query


def _said(day: str) -> str:
    return f"{date.fromisoformat(day):%b %d, %Y}"


def _hover_words(page: Page, chart: Locator, label: str) -> str:
    """Hover the chart's ``label`` ("before" / "after") marker until its hover label shows; its words.

    The mouse rests a few pixels beside the marker's centre: there a line's own point at the same spot
    is farther than the (larger) marker, so the marker's label is the one shown."""
    marker = chart.locator(f'g.trace.scatter:has(g.textpoint text:text-is("{label}")) path.point').first
    deadline = time.monotonic() + EVIDENCE_DEADLINE_S
    shown: list[str] = []
    for nudge in [-5, 5, -7, 7] * 50:
        box = marker.bounding_box(timeout=TIMEOUT_MS)
        assert box is not None, f"no {label} marker on the chart"
        page.mouse.move(box["x"] + box["width"] / 2 + nudge, box["y"] + box["height"] / 2)
        try:
            chart.locator(".hoverlayer .hovertext").first.wait_for(timeout=2_000)
        except Exception:  # no label yet: the chart may still be drawing
            shown = []
        else:
            shown = chart.locator(".hoverlayer .hovertext").all_text_contents()
            if any(text.startswith(f"{label}:") for text in shown) or time.monotonic() > deadline:
                break
        page.mouse.move(0, 0)
        if time.monotonic() > deadline:
            break
    return next((text for text in shown if text.startswith(f"{label}:")), f"(hover showed {shown})")


def _first_table_row(page: Page) -> str:
    """The text of the first row of the first table drawn, once it has one."""
    rows = page.locator(GRID).first.locator("tbody tr")
    deadline = time.monotonic() + EVIDENCE_DEADLINE_S
    while rows.count() == 0 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    return rows.first.text_content(timeout=TIMEOUT_MS) or ""


def _check_chart(page: Page, alert: RuleAlert, query: dict[str, str]) -> None:
    dates = page.locator('[data-testid="stDateInput"]').filter(has_text="Alert window").locator("input")
    dates.last.wait_for(timeout=TIMEOUT_MS)
    assert [d.input_value() for d in dates.all()] == [query["history_from"], query["history_to"]]
    chart = page.locator(CHART).filter(has=page.locator(f'.gtitle:has-text("{alert.chart}")')).first
    chart.wait_for(timeout=TIMEOUT_MS)
    assert (
        _hover_words(page, chart, "before") == f"before: {alert.before} on {_said(query['history_before'])}"
    )
    assert _hover_words(page, chart, "after") == f"after: {alert.after} on {_said(query['history_to'])}"


def _check_churn(page: Page, alert: RuleAlert, query: dict[str, str]) -> None:
    slider = page.locator('[data-testid="stSlider"]').first.inner_text(timeout=TIMEOUT_MS)
    assert _said(query["history_before"]) in slider and _said(query["history_to"]) in slider
    assert alert.referring_domain is not None
    assert alert.referring_domain in _first_table_row(page)


@pytest.mark.parametrize("rule", list(ALERTS))
def test_each_rules_chart_link_opens_its_evidence(
    browser: BrowserProfile, evidence_app: ServedApp, rule: str
) -> None:
    alert = ALERTS[rule]
    with browser.app_tab(f"{evidence_app.url}/alerts", width=1280, height=1400) as page:
        query = _follow_chart_link(page, alert)
        assert query.get("history_to") and query.get("history_before"), query  # the window travels
        selected = page.get_by_role("tab", selected=True).first.text_content(timeout=TIMEOUT_MS) or ""
        assert selected.strip() == alert.tab
        if alert.referring_domain is None:
            _check_chart(page, alert, query)
        else:
            _check_churn(page, alert, query)
        screenshot(page, f"alert-evidence-{rule.replace('_', '-')}")


def test_the_app_log_has_no_traceback(evidence_app: ServedApp) -> None:
    assert "Traceback" not in Path(evidence_app.log).read_text(errors="replace")
