"""Every page × every way the service can fail: no traceback, a plain-language message, typed input kept,
and the page recovers on the next good answer.

The catalogue below lists each page of the registry (``components.core.nav.pages``) with what makes it fetch;
a new page must be added to it (``test_catalogue_covers_every_page`` fails until it is), so later pages
pass the same matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analysis.error_wording import describe_error
from client import ApiClient, ApiError, TransportError
from components.core.nav import pages
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.faults import NAMED_FAULTS, STATUS_FAULTS
from tests.apptest.app_pages import APP, empty_caches

MINE = ACCOUNTS[DEMO_KEY].sites[0]
KEYWORD = "best running shoes"


@dataclass(frozen=True)
class PageCase:
    """One page: how a user makes it fetch, which reads it makes, and what they typed."""

    file: str
    reads: tuple[str, ...]
    params: dict[str, str] = field(default_factory=dict)
    typed: dict[str, str] = field(default_factory=dict)
    click: str | None = None
    #: Where the page explains a failure: "callout" (show_error) or "table" (a per-row Problem column,
    #: which quotes the service's own message; a run-ending error is also a callout).
    message_in: str = "callout"
    #: Faults the page explains in its own words (page-specific context, e.g. a cold Trust Map's 503).
    own_words: frozenset[int | str] = frozenset({404})

    def __str__(self) -> str:
        return Path(self.file).stem


CATALOGUE: tuple[PageCase, ...] = (
    PageCase("views/overview.py", ("lookup",), typed={"domain": MINE}),
    PageCase(
        "views/trust-map.py", ("lookup", "trust_map"), typed={"domain": MINE}, own_words=frozenset({404, 503})
    ),
    PageCase("views/site-check.py", ("site_check",), typed={"domain": MINE}, click=f"check_read_{MINE}"),
    PageCase(
        "views/bulk-dr.py",
        ("dr",),
        typed={"bulk_domains": f"{MINE}\nacme-widgets.com"},
        click="bulk_start",
        message_in="table",
    ),
    PageCase("views/badges.py", ("snippets",), typed={"domain": MINE}),
    PageCase("views/categories.py", ("categories",)),
    PageCase("views/keyword-research.py", ("keyword_report",), typed={"keyword": KEYWORD, "domain": MINE}),
    PageCase("views/keyword-suggestions.py", ("keyword_suggestions",), typed={"domain": MINE}),
    PageCase("views/tracked-keywords.py", ("tracked_keywords",), params={"site": MINE}),
    # The site comes from the history or the service's list of your sites; the suggestions then fail.
    PageCase("views/opportunities.py", ("keyword_suggestions",)),
    PageCase("views/discover.py", ("find",)),
    PageCase("views/exchanges.py", ("lookup", "exchange_candidates"), typed={"domain": MINE}),
    PageCase("views/my-sites.py", ("sites",)),
    PageCase("views/site.py", ("site",), typed={"domain": MINE}),
    PageCase("views/ai-visibility.py", ("ai_visibility",), typed={"domain": MINE}),
    PageCase("views/search-console.py", ("gsc_performance",), typed={"domain": MINE}),
    PageCase("views/monitor.py", ("monitor",)),
    PageCase("views/coach.py", ("lookup",), typed={"domain": MINE}),
    PageCase("views/history.py", ("sites",)),
    PageCase("views/market.py", ("sites",)),
    # Read only the history store: a failing service never reaches them, and they must still draw cleanly.
    PageCase("views/reports.py", ()),
    PageCase("views/alerts.py", ()),
    PageCase("views/activity.py", ()),
)

#: Every fault the sandbox injects, but the markup one, which has its own test on every page of this
#: catalogue (``test_inert_text_pages``: text drawn inert, not an error explained).
FAULTS: tuple[int | str, ...] = tuple(
    fault for fault in (*STATUS_FAULTS, *NAMED_FAULTS) if fault != "hostile"
)
#: Faults whose Retry-After is past what the client waits for, so it reports at once instead of retrying.
LONG_RETRY_AFTER = 60.0


def _retry_after(fault: int | str) -> float | None:
    return LONG_RETRY_AFTER if fault in (429, 503) else None


_WORDS: dict[int | str, tuple[str, str]] = {}


def _expected_words(sandbox: SandboxServer, fault: int | str) -> tuple[str, str]:
    """(show_error's title, the client's message) for this fault: provoked once, so nothing is hard-coded."""
    if fault not in _WORDS:
        _WORDS[fault] = _provoke(sandbox, fault)
    return _WORDS[fault]


def _provoke(sandbox: SandboxServer, fault: int | str) -> tuple[str, str]:
    sandbox.state.add_fault("categories", fault, key=DEMO_KEY, times=1, retry_after=_retry_after(fault))
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=1.0, max_retries=0) as client:
        with pytest.raises(ApiError) as caught:
            client.categories()
    return describe_error(caught.value).title, caught.value.message


def _callouts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in (at.error, at.warning, at.info) for e in kind)


def _table_problems(at: AppTest) -> str:
    frames = [df.value for df in at.dataframe]
    return "\n".join(
        str(v) for f in frames if "error" in f.columns for v in f["error"].dropna().astype(str).tolist()
    )


def _assert_every_row_explained(at: AppTest, case: PageCase, fault: int | str, message: str) -> None:
    """Each typed domain has a row saying why it was not rated (in the service's words, when they do
    not depend on the operation)."""
    frames = [df.value for df in at.dataframe if "error" in df.value.columns]
    assert frames, f"{case} under {fault}: no results table"
    problems = frames[0]["error"]
    assert len(problems) == len(next(iter(case.typed.values())).split()) and problems.notna().all()
    if fault not in ("badtypes", 404):  # those messages name the operation's own fields or domain
        assert message in _table_problems(at), f"{case} under {fault}: no {message!r} in the table"


def _drive(at: AppTest, case: PageCase, *, type_inputs: bool) -> AppTest:
    at.run()
    if type_inputs and case.typed:
        for key, value in case.typed.items():
            widget = at.text_area(key=key) if key == "bulk_domains" else at.text_input(key=key)
            widget.input(value)
        at.run()
    if case.click is not None:
        buttons = [b for b in at.button if b.key == case.click]
        if buttons:
            buttons[0].click().run()
    return at


def _app(case: PageCase) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for name, value in case.params.items():
        at.query_params[name] = value
    at.switch_page(case.file)
    return at


def test_catalogue_covers_every_page() -> None:
    assert {page.file for page in pages.ALL} == {case.file for case in CATALOGUE}


def test_a_dropped_connection_is_a_transport_error(sandbox: SandboxServer) -> None:
    sandbox.state.add_fault("lookup", "drop", key=DEMO_KEY)
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=5.0, max_retries=1) as client:
        with pytest.raises(TransportError) as caught:
            client.lookup(MINE)
    assert type(caught.value) is TransportError  # not a timeout: the answer broke off
    # A GET that broke off is asked again (within the retry budget), and every attempt broke off.
    assert sandbox.state.total_requests() == 2


@pytest.mark.parametrize("fault", FAULTS, ids=str)
@pytest.mark.parametrize("case", CATALOGUE, ids=str)
def test_fault_matrix(
    case: PageCase, fault: int | str, live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    sandbox = live_env
    quiet = fault == "nulls" or not case.reads  # no read of this page can fail: nothing to explain
    expected, message = (None, None) if quiet else _expected_words(sandbox, fault)
    if fault == "timeout":
        monkeypatch.setenv("VERIFIEDDR_TIMEOUT", "1")
    for operation in case.reads:
        sandbox.state.add_fault(operation, fault, key=DEMO_KEY, retry_after=_retry_after(fault))

    at = _drive(_app(case), case, type_inputs=True)

    assert not at.exception, [e.value for e in at.exception]
    if expected is not None and message is not None:
        shown = _callouts(at)
        if case.message_in == "table" and expected not in shown:
            _assert_every_row_explained(at, case, fault, message)
        elif fault in case.own_words:
            assert shown.strip(), f"{case} under {fault}: no message"
        else:
            assert expected in shown, f"{case} under {fault}: no {expected!r} in {shown!r}"
    for key, value in case.typed.items():
        widget = at.text_area(key=key) if key == "bulk_domains" else at.text_input(key=key)
        assert widget.value == value

    sandbox.state.clear_faults()
    empty_caches()
    monkeypatch.delenv("VERIFIEDDR_TIMEOUT", raising=False)
    at = _drive(at, case, type_inputs=False)

    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, f"{case} after {fault}: {[e.value for e in at.error]}"
    if expected is not None and message is not None:
        assert expected not in _callouts(at)
        assert message not in _table_problems(at)
