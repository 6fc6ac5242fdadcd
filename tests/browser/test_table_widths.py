"""Tables as a person sees them at common laptop widths, in headless Chromium: the Coach's tabs, Discover,
Categories, the Domain overview's compare mode, the bulk DR checker's results and the site check's signals.

Every table must show all its columns inside the page at 1440 and 1280 px: a column scrolled off to the
right (the Coach's "Heuristic impact", "Why" and "Based on"; the comparison's last 13 columns) is one nobody
reads. What a narrow table leaves out (why an action helps, how a plan step is done, a compared site's
title and weekly changes) must still read in full on the page.

Each case opens its page in one tab per width (shared by the module, see ``laptops``), both at once.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

import pytest
from playwright.sync_api import Page

from analysis.coach import rules as coach
from analysis.wording import whole_number
from client import ApiClient
from client.models import Lookup
from sandbox import DEMO_KEY, SandboxServer
from sandbox import data as sandbox_data
from tests.browser.tabs import (
    TIMEOUT_MS,
    as_shown,
    assert_tables_fit,
    drawn_tables,
    go_to_each,
    screenshot,
    settled,
)
from tests.sandbox_picks import domain_where, listed_domains

pytestmark = pytest.mark.browser

#: Demo sites with long and short evidence, one with every action (the longest action names), and a
#: site whose Trust Map is still being built (the audit then lists the lookup's backlinks, with their
#: anchors and linking pages).
COACH_SITES = ("acme-widgets.com", "stripe.com")
ALL_ACTIONS_SITE = domain_where(lambda lookup: len(coach.ranked_actions(lookup)) >= 5)
COLD_MAP_SITE = next(d for d in listed_domains() if sandbox_data.is_map_cold(d))
#: Compared sites with long titles, then an entry that is no domain and an unlisted one (their rows get
#: the Problem column, wrapped) and a second spelling of a site (merged); and a bulk list with a line
#: that is skipped, where the bulk run's results are the table measured.
LISTED_COMPARED = ("stripe.com", "hubspot.com", "acme-widgets.com", "example.com")
COMPARED = (*LISTED_COMPARED[:2], "not a domain!!", "example.co.uk", *LISTED_COMPARED[2:], "www.stripe.com")
BULK_LIST = ("stripe.com", "https://www.github.com/features", "example.com, hubspot.com", "localhost")
#: What to do on a page before its tables are measured, in order: ("text", t) clicks the text t (an
#: expander's label), ("button", pattern) clicks the button whose name matches, ("see", t) waits for t.
Step = tuple[str, str]
FOLDED: dict[str, tuple[Step, ...]] = {
    "Diagnose": (("text", "The evidence as a table"),),
    "Track": (("text", "The changes as a table"),),
}
#: (address, what to do first, how many tables it draws) for every table of these pages.
TABLE_PAGES: tuple[tuple[str, tuple[Step, ...], int], ...] = (
    *(
        (f"coach?{urlencode({'domain': site, 'coach': tab})}", FOLDED.get(tab, ()), count)
        for site in COACH_SITES
        for tab, count in (("Actions", 1), ("Diagnose", 1), ("Audit backlinks", 3), ("Fix", 1), ("Track", 1))
    ),
    *(
        (f"coach?{urlencode({'domain': ALL_ACTIONS_SITE, 'coach': tab})}", (), 1)
        for tab in ("Actions", "Fix")
    ),
    (f"coach?{urlencode({'domain': COLD_MAP_SITE, 'coach': 'Audit backlinks'})}", (), 2),
    ("discover", (), 1),
    ("discover?unverified=true&limit=50", (), 1),
    ("categories", (), 1),
    (f"?compare=true&domains={quote(chr(10).join(COMPARED))}", (), 1),
    (
        f"bulk-dr?bulk_domains={quote(chr(10).join(BULK_LIST))}",
        (("button", r"^Check \d+ domains"), ("see", "Rated ")),
        2,  # the skipped line, and the results
    ),
    (
        "site-check?domain=example.com",
        (("button", r"^Read the report"), ("text", "All signals as a table")),
        1,
    ),
)


def _do(page: Page, steps: tuple[Step, ...]) -> None:
    """Take ``steps`` on the page (see ``Step``), each once the script run before it has ended."""
    for kind, what in steps:
        if kind == "button":
            page.get_by_role("button", name=re.compile(what)).click()
            settled(page)
        elif kind == "text":
            page.get_by_text(what).first.click()
        else:
            page.get_by_text(what).first.wait_for(timeout=TIMEOUT_MS)
            settled(page)


@pytest.mark.parametrize(("address", "steps", "count"), TABLE_PAGES, ids=[a for a, _, _ in TABLE_PAGES])
def test_every_table_shows_all_its_columns_at_laptop_widths(
    app_url: str, laptops: dict[int, Page], address: str, steps: tuple[Step, ...], count: int
) -> None:
    go_to_each(laptops.values(), f"{app_url}/{address}")
    for width, page in laptops.items():
        _do(page, steps)
        tables = drawn_tables(page, count=count)
        assert len(tables) == count, f"{address} at {width}px drew {len(tables)} tables, not {count}"
        assert_tables_fit(tables, f"{address} at {width}px")


def _reads_in_full(page: Page, text: str, width: int) -> None:
    """``text`` is on the page as text (not only in a table cell), inside the page's width."""
    shown = page.locator('[data-testid="stMarkdownContainer"]', has_text=as_shown(text)).first
    shown.wait_for(timeout=TIMEOUT_MS)
    box = shown.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width, f"{text!r} runs off the page"


def test_why_each_action_helps_and_how_each_step_is_done_read_in_full(
    app_url: str, laptops: dict[int, Page], sandbox: SandboxServer
) -> None:
    site = ALL_ACTIONS_SITE
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        lookup = client.lookup(site)
    go_to_each(laptops.values(), f"{app_url}/coach?{urlencode({'domain': site, 'coach': 'Actions'})}")
    for width, page in laptops.items():
        for action in coach.ranked_actions(lookup):
            _reads_in_full(page, action.detail, width)
            _reads_in_full(page, action.impact, width)
        screenshot(page, f"coach-actions-{width}")
    go_to_each(laptops.values(), f"{app_url}/coach?{urlencode({'domain': site, 'coach': 'Fix'})}")
    for width, page in laptops.items():
        for phase in coach.fix_plan(lookup, coach.DEFAULT_GOAL).phases:
            _reads_in_full(page, phase.detail, width)


def test_what_the_comparison_leaves_out_reads_in_full_under_it(
    app_url: str, laptops: dict[int, Page], sandbox: SandboxServer
) -> None:
    with ApiClient(sandbox.base_url, DEMO_KEY) as client:
        lookups: list[Lookup] = [client.lookup(d) for d in LISTED_COMPARED]
    assert all(lookup.title for lookup in lookups)
    go_to_each(laptops.values(), f"{app_url}/?compare=true&domains={quote(chr(10).join(COMPARED))}")
    for width, page in laptops.items():
        drawn_tables(page)
        screenshot(page, f"compare-table-{width}")
        page.get_by_text("Each site in full").click()
        for lookup in lookups:
            _reads_in_full(page, str(lookup.title), width)
            _reads_in_full(page, f"{whole_number(lookup.evidence.backlinks)} backlinks", width)
        screenshot(page, f"compare-in-full-{width}")
