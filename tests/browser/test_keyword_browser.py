"""Keyword pages in a real headless Chromium: research a keyword, add then remove a tracked keyword."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from analysis.wording import short_number
from client import ApiClient
from client.inputs import slug_for
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.browser.tabs import (
    TIMEOUT_MS,
    BrowserProfile,
    assert_tables_fit,
    drawn_tables,
    go_to_each,
    screenshot,
    settled,
)

pytestmark = pytest.mark.browser

SITE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = slug_for(SITE)
KEYWORDS_PATH = f"/api/v1/sites/{SLUG}/keywords"
#: True while a script run is going: the status widget then offers to stop it.
RUNNING = (
    "[...document.querySelectorAll('[data-testid=\"stStatusWidget\"]')]"
    ".some(w => w.innerText.includes('Stop'))"
)


def _after_rerun(page: Page) -> None:
    """After an interaction: wait for the run it starts (if it shows at all), then for its end."""
    with contextlib.suppress(PlaywrightTimeoutError):  # a quick run may come and go between polls
        page.wait_for_function(f"() => {RUNNING}", timeout=2_000)
    settled(page)


def _click(page: Page, name: str) -> None:
    """Click the one current button of that name (a finished run leaves no stale copy behind)."""
    button = page.get_by_role("button", name=name)
    expect(button).to_have_count(1, timeout=TIMEOUT_MS)
    button.click()
    _after_rerun(page)


def _metric_value(page: Page, label: str) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]', has_text=re.compile(f"^{re.escape(label)}$"))
    )
    metric.first.wait_for(timeout=TIMEOUT_MS)
    return metric.first.locator('[data-testid="stMetricValue"]').inner_text().strip()


def _requests(server: SandboxServer, method: str, path: str) -> int:
    return sum(1 for m, p, _, _ in server.state.request_log if m == method and p == path)


def test_research_a_keyword_and_see_its_chart(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer
) -> None:
    keyword = "coffee beans"
    with browser.app_tab(
        f"{app_url}/keyword-research?keyword=coffee+beans&domain={SITE}", height=1300
    ) as page:
        page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=TIMEOUT_MS)
        median = _metric_value(page, "Median DR")
        gap = _metric_value(page, "Gap")
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            expected = client.keyword_report(keyword, SITE)
        assert median == short_number(expected.median_dr)
        assert expected.user is not None and gap == f"{expected.user.gap:+g}"
        assert page.get_by_text("DR of the top 10 by position").count() >= 1
        settled(page)
        screenshot(page, "keyword_research")


def test_add_then_remove_a_tracked_keyword(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer
) -> None:
    keyword = "server side tracking"
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        start = client.tracked_keywords(SLUG)
    count = len(start.keywords)
    with browser.app_tab(f"{app_url}/tracked-keywords?domain={SITE}", height=1300) as page:
        page.get_by_text(f"{count} of {start.limit} tracked keywords").wait_for(timeout=TIMEOUT_MS)

        settled(page)
        field = page.get_by_label("Keyword to track")
        field.fill(keyword)
        _click(page, "Track keyword")
        page.get_by_text("Now tracking").wait_for(timeout=TIMEOUT_MS)
        page.get_by_text(f"{count + 1} of {start.limit} tracked keywords").wait_for(timeout=TIMEOUT_MS)
        assert _requests(sandbox, "POST", KEYWORDS_PATH) == 1
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            added = [k for k in client.tracked_keywords(SLUG).keywords if k.keyword == keyword]
        assert len(added) == 1
        settled(page)
        screenshot(page, "tracked_keywords_added")

        page.get_by_label("Tracked keyword").click()
        page.get_by_role("option", name=keyword).click()
        _after_rerun(page)  # until a run ends, the last run's elements are on the page too
        _click(page, "Remove…")
        _click(page, "Yes, remove it")
        page.get_by_text("Stopped tracking").wait_for(timeout=TIMEOUT_MS)
        page.get_by_text(f"{count} of {start.limit} tracked keywords").wait_for(timeout=TIMEOUT_MS)
        assert _requests(sandbox, "DELETE", KEYWORDS_PATH) == 1
        with ApiClient(sandbox.base_url, DEMO_KEY) as client:
            assert added[0].id not in {k.id for k in client.tracked_keywords(SLUG).keywords}


# --- what fits and what stays readable ------------------------------------------------------------

#: A keyword where one of the demo key's sites is in the top 10, so the "Tracked site" column is filled.
TRACKED_SITE_KEYWORD = "web analytics"
TABLE_PAGES = {
    "research": f"/keyword-research?keyword={TRACKED_SITE_KEYWORD.replace(' ', '+')}&domain={SITE}",
    "compare": "/keyword-research?kw_compare=true&domain="
    + SITE
    + "&keywords="
    + "%0A".join(k.replace(" ", "+") for k in ("coffee beans", "web analytics", "espresso machine")),
    "suggestions": f"/keyword-suggestions?domain={SITE}",
    "tracked": f"/tracked-keywords?domain={SITE}",
}


@pytest.mark.parametrize("name", list(TABLE_PAGES))
def test_every_keyword_table_fits_the_page(app_url: str, laptops: dict[int, Page], name: str) -> None:
    """No column of a keyword table is cut off at the right edge on a laptop screen."""
    go_to_each(laptops.values(), app_url + TABLE_PAGES[name])
    for width, page in laptops.items():
        tables = drawn_tables(page)
        screenshot(page, f"keyword_tables_{name}_{width}")
        assert_tables_fit(tables, f"{name} at {width} px")


#: Each bar's value label, each bar, and each horizontal reference line with the layer it is drawn in.
CHART_PARTS = """() => {
    const plot = document.querySelector('.js-plotly-plot');
    const box = e => { const r = e.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
    const lines = [...plot.querySelectorAll('.shapelayer path')].map(e => ({
        ...box(e), above: !!e.closest('.layer-above') })).filter(l => l.bottom - l.top < 3);
    return {
        labels: [...plot.querySelectorAll('text.bartext')].map(e => ({
            text: e.textContent, fill: getComputedStyle(e).fill, ...box(e) })),
        bars: [...plot.querySelectorAll('.trace.bars .point path')].map(e => ({
            fill: getComputedStyle(e).fill, ...box(e) })),
        lines: lines,
    };
}"""


def _luminance(css: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", css)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bar_labels_are_not_struck_through_by_the_median_line(
    app_url: str, browser: BrowserProfile, sandbox: SandboxServer, scheme: str
) -> None:
    """Each DR label of the top-10 chart is readable: no reference line is drawn across it."""
    keyword = "coffee beans"
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        report = client.keyword_report(keyword, SITE)
    assert report.user is not None and report.median_dr is not None
    levels = [report.median_dr, report.min_dr, report.user.dr]
    # The case this test is about: a bar ends just under a line, where a label above it would sit.
    assert any(0 < level - r.dr < 8 for r in report.results if r.dr is not None for level in levels)
    address = f"{app_url}/keyword-research?keyword=coffee+beans&domain={SITE}"
    with browser.app_tab(address, width=1440, height=1600, color_scheme=scheme) as page:
        page.locator(".js-plotly-plot text.bartext").first.wait_for(timeout=TIMEOUT_MS)
        settled(page, linger_ms=500)
        parts = page.evaluate(CHART_PARTS)
        screenshot(page.locator(".js-plotly-plot").first, f"serp_chart_{scheme}")
    assert len(parts["labels"]) == sum(r.dr is not None for r in report.results)
    assert len(parts["lines"]) == len(levels)
    for label in parts["labels"]:
        middle = (label["left"] + label["right"]) / 2
        bar = next(b for b in parts["bars"] if b["left"] <= middle <= b["right"])
        inside = bar["top"] <= label["top"] and label["bottom"] <= bar["bottom"]
        for line in parts["lines"]:
            crosses = label["top"] < line["top"] < label["bottom"]
            hidden = inside and not line["above"]  # the bar covers a line drawn beneath it
            assert not crosses or hidden, f"DR {label['text']} is struck through in {scheme} theme"
        if inside:
            assert _contrast(label["fill"], bar["fill"]) >= 4.5, f"DR {label['text']} on its bar"
