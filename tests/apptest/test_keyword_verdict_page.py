"""Keyword research's advice in AppTest agrees with the site's own place in the top 10 it shows: a
demo site ranked in the live top 10 with a DR well below its median is told where it stands, not that
it faces "a long climb"; a site outside the top 10 is still told how far short it is."""

from __future__ import annotations

from client import ApiClient
from client.models import KeywordReport
from components.core.nav import pages
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.apptest.app_pages import as_read, open_page

RESEARCH = pages.KEYWORD_RESEARCH.file
KEYWORD = "coffee beans"
RANKED = "northwind-coffee.com"  # one of the demo key's sites, in this keyword's top 10
OUTSIDE = ACCOUNTS[DEMO_KEY].sites[1]


def _report(server: SandboxServer, domain: str) -> KeywordReport:
    with ApiClient(server.base_url, DEMO_KEY) as client:
        return client.keyword_report(KEYWORD, domain)


def test_a_site_in_the_top_10_is_told_its_place_and_what_its_gap_means(live_env: SandboxServer) -> None:
    report = _report(live_env, RANKED)
    place = next(row.position for row in report.results if row.domain == RANKED)
    assert report.user is not None and report.user.gap is not None and report.user.gap > 10  # far below
    at = open_page(RESEARCH, keyword=KEYWORD, domain=RANKED)
    assert not at.exception, [e.value for e in at.exception]
    advice = [as_read(s.value) for s in at.success if "You rank" in s.value]  # as read
    assert advice and f"You rank #{place}, in the top 10" in advice[0]
    assert f"yet your page ranks #{place}" in advice[0]
    assert not [w.value for w in at.warning if "long climb" in w.value]
    assert not [i.value for i in at.info if "DR short" in i.value]


def test_a_site_outside_the_top_10_is_still_told_how_far_short_it_is(live_env: SandboxServer) -> None:
    report = _report(live_env, OUTSIDE)
    assert all(row.domain != OUTSIDE for row in report.results)
    at = open_page(RESEARCH, keyword=KEYWORD, domain=OUTSIDE)
    assert not at.exception, [e.value for e in at.exception]
    said = "\n".join(c.value for kind in (at.success, at.info, at.warning) for c in kind)
    assert "Your site is not in the top 10 yet" in as_read(said)
