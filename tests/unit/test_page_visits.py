"""Every page of the app has a visit for the benchmarks to open (``rigs.page_visits``); what each visit
draws is checked in tests/apptest/test_bench_pages.py."""

from __future__ import annotations

from components.core.nav import pages
from rigs.page_visits import PAGE_VISITS


def test_every_page_visit_has_a_url_and_a_ready_selector() -> None:
    names = [v.name for v in PAGE_VISITS]
    assert len(names) == len(set(names))
    for visit in PAGE_VISITS:
        assert visit.url("http://127.0.0.1:1").startswith("http://127.0.0.1:1/") and visit.ready


def test_every_page_of_the_app_is_benchmarked() -> None:
    """A page added to the registry without a PageVisit would silently escape P1 and P3."""
    # The default page is served at the root: "/overview" would be "Page not found".
    (default,) = [page.url_path for page in pages.ALL if page.default]
    expected = {page.url_path for page in pages.ALL} - {default} | {""}
    assert expected <= {v.path for v in PAGE_VISITS}
    assert default not in {v.path for v in PAGE_VISITS}
