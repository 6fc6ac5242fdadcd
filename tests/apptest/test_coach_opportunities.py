"""The Coach's next actions from the opportunities list, in AppTest, in Live mode against the session
sandbox, its store a temporary SQLite file holding the demo's history: for one of your own sites the
Actions and Next tabs give the top keywords of the same list the Opportunities page and ``python -m store
opportunities`` give (their numbers checked against the command's CSV), say how many keywords lack a top
10 and link to the page; they spend no call of their own (under every fault the sandbox injects on the
list's reads, too); a domain that is not yours, and a database that cannot be used, are said in words."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from client import ApiClient
from client.models import KeywordReport, KeywordSuggestions, TrackedKeywords
from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxServer
from sandbox.faults import NAMED_FAULTS, STATUS_FAULTS
from services.jobs.opportunities import run as run_command
from services.market import team_ctr
from services.opportunities import NotAsked, read_candidates
from services.opportunities.top import top_opportunities
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = datetime.now(UTC).date()
COACH, OPPORTUNITIES = "views/coach.py", "views/opportunities.py"
SITE = "northwind-coffee.com"
#: The reads of the opportunities list (and of the list of your sites) the Coach must never make.
LIST_PATHS = ("/api/v1/keywords", "/api/v1/keywords/suggestions", "/api/v1/sites")
PUSH = re.compile(
    r"(?:Push “(?P<keyword>[^”]+)” from position (?P<position>\d+) to (?P<target>\d+)"
    r"|Get “(?P<keyword2>[^”]+)” to position (?P<target2>\d+) \(not ranking yet\))"
    r": about (?P<clicks>[\d,]+) more clicks a month; "
    r"(?:its top 10's median DR is (?P<median>[\d.]+), yours (?P<mine>[\d.]+)"
    r"|your DR (?P<mine2>[\d.]+) already reaches its top 10's median DR (?P<median2>[\d.]+))"
)


@pytest.fixture
def store(demo_history: HistoryStore) -> HistoryStore:
    """The demo history (``tests.apptest.conftest``), a copy of this test's own, the one the app opens."""
    return demo_history


def coach(domain: str, tab: str = "Actions") -> AppTest:
    at = open_page(COACH, domain=domain, coach=tab)
    assert not at.exception, [e.value for e in at.exception]
    return at


def pushes(at: AppTest) -> list[dict[str, str]]:
    found = [m.groupdict() for m in PUSH.finditer(as_read(shown_text(at)))]
    for row in found:
        row["keyword"] = row["keyword"] or row.pop("keyword2")
        row["target"] = row["target"] or row.pop("target2")
        row["median"] = row["median"] or row.pop("median2")
        row["mine"] = row["mine"] or row.pop("mine2")
    return found


def list_reads(sandbox: SandboxServer) -> list[str]:
    return [path for _method, path, _query, _key in sandbox.state.request_log if path.startswith(LIST_PATHS)]


def command_list(sandbox: SandboxServer, store: HistoryStore, site: str) -> pd.DataFrame:
    """``python -m store opportunities --site SITE --max-calls 0 --csv``'s list: what the Coach ranks
    (the keyword reports are the Opportunities page's to read)."""
    out = io.StringIO()
    with ApiClient(sandbox.base_url, DEMO_KEY, timeout=5.0) as client:
        run_command(
            store,
            client,
            ACCOUNT,
            site,
            ctr=team_ctr().curve,
            target=3,
            max_calls=0,
            as_csv=True,
            out=out,
            say=lambda _line: None,
        )
    return pd.read_csv(io.StringIO(out.getvalue()), keep_default_na=False, na_values=[""])


def gaining(scored: pd.DataFrame) -> pd.DataFrame:
    """The list's rows with a score and clicks to gain, in its order: the Coach's next actions."""
    return scored[scored["score"].notna() & (scored["clicks_gained"] > 0)].reset_index(drop=True)


def link_to_list(at: AppTest) -> list[str]:
    return [link.proto.query_string for link in at.get("page_link") if link.proto.page == "opportunities"]


def test_the_actions_tab_gives_the_top_of_the_list_the_command_writes_and_spends_no_call(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    page = open_page(OPPORTUNITIES, site=SITE)  # the page reads the suggestions and tracked
    assert not page.exception, [e.value for e in page.exception]
    assert page.selectbox(key="site").value == SITE  # the Coach's link opens this site
    before = list_reads(live_env)
    at = coach(SITE)
    assert list_reads(live_env) == before  # no read of the list's own, no keyword report
    said = pushes(at)
    expected = gaining(command_list(live_env, store, SITE)).head(3)
    assert len(said) == 3 == len(expected)
    for shown, (_, row) in zip(said, expected.iterrows(), strict=True):
        assert shown["keyword"] == row["keyword"]
        assert int(shown["position"]) == int(row["position"]) and shown["target"] == "3"
        assert int(shown["clicks"].replace(",", "")) == round(float(row["clicks_gained"]))
        assert float(shown["median"]) == pytest.approx(row["median_dr"], abs=0.05)
        assert float(shown["mine"]) == pytest.approx(row["site_dr"], abs=0.05)
    # The page's own table ranks the same keywords first.
    table = next(f.value for f in page.dataframe if "score" in f.value.columns)
    assert list(gaining(table)["keyword"].head(3)) == [row["keyword"] for row in said]
    text = as_read(shown_text(at))
    full = command_list(live_env, store, SITE)
    lacking = int(full["top10_from"].isna().sum())
    assert lacking and f"{lacking} more keywords have no top 10 yet" in text
    watched = full[full["median_words"].notna()]
    assert len(watched) >= 2
    for keyword, words in zip(watched["keyword"], watched["median_words"], strict=True):
        assert f"“{keyword}” becomes winnable against its top 10's median DR: {words}" in text
    assert "not read in the last 15 minutes" not in text
    assert link_to_list(at) == [f"site={SITE}"]


def test_the_next_tab_adds_the_first_of_them(store: HistoryStore, live_env: SandboxServer) -> None:
    open_page(OPPORTUNITIES, site=SITE)
    first = pushes(coach(SITE))[0]
    before = list_reads(live_env)
    at = coach(SITE, "Next")
    assert pushes(at) == [first]
    assert list_reads(live_env) == before
    assert link_to_list(at) == [f"site={SITE}"]


class NothingRead:
    """The list's reads when nothing is cached: none is asked (as the Coach's)."""

    def keyword_suggestions(self, domain: str) -> KeywordSuggestions:
        raise NotAsked("not asked")

    def tracked_keywords(self, slug: str) -> TrackedKeywords:
        raise NotAsked("not asked")

    def keyword_report(self, keyword: str, domain: str | None = None) -> KeywordReport:
        raise NotAsked("not asked")


def test_with_nothing_read_yet_the_list_is_the_historys_and_says_so(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = coach(SITE)
    assert list_reads(live_env) == []
    text = as_read(shown_text(at))
    assert "Your site's keyword suggestions and your site's tracked keywords were not read" in text
    # The tracked keywords as last recorded rank, with the numbers the list gives from the same history.
    expected = top_opportunities(read_candidates(store, NothingRead(), ACCOUNT, SITE), team_ctr().curve)
    said = pushes(at)
    assert len(said) == len(expected.rows) > 0
    for shown, (_, row) in zip(said, expected.rows.iterrows(), strict=True):
        assert shown["keyword"] == row["keyword"] and int(shown["position"]) == int(row["position"])
        assert int(shown["clicks"].replace(",", "")) == round(float(row["clicks_gained"]))
        assert float(shown["median"]) == pytest.approx(row["median_dr"], abs=0.05)


def test_a_domain_not_yours_is_told_opportunities_are_for_your_own_sites(
    store: HistoryStore, live_env: SandboxServer
) -> None:
    at = coach("stripe.com")
    text = as_read(shown_text(at))
    assert "Keyword opportunities are for your own sites: stripe.com is not one of the sites" in text
    assert not pushes(at) and not link_to_list(at)
    assert list_reads(live_env) == []


def test_an_unavailable_store_is_said_and_the_actions_stay(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", "postgresql+psycopg://u:secret@127.0.0.1:1/x")
    at = coach(SITE)
    text = as_read(shown_text(at))
    assert "History is unavailable" in text and "keyword opportunities cannot be listed here" in text
    assert "secret" not in text
    assert "Each action in full" in text and not pushes(at)
    assert list_reads(live_env) == []


@pytest.mark.parametrize("fault", [*STATUS_FAULTS, *NAMED_FAULTS], ids=str)
def test_under_every_fault_of_the_lists_reads_the_coach_spends_no_call_and_says_what_it_has(
    fault: int | str, store: HistoryStore, live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    if fault == "timeout":
        monkeypatch.setenv("VERIFIEDDR_TIMEOUT", "1")
    for operation in ("keyword_suggestions", "tracked_keywords", "keyword_report", "sites"):
        live_env.state.add_fault(operation, fault, key=DEMO_KEY, retry_after=60.0)
    # Nothing cached: the Coach asks nothing and ranks what the history holds.
    at = coach(SITE)
    assert list_reads(live_env) == []
    assert "were not read in the last 15 minutes" in as_read(shown_text(at)) and pushes(at)
    # The Opportunities page reads under the fault (a definitive failure is cached, a passing one not);
    # the Coach then uses what is kept and still asks nothing.
    page = open_page(OPPORTUNITIES, site=SITE)
    assert not page.exception, [e.value for e in page.exception]
    before = list_reads(live_env)
    at = coach(SITE)
    assert list_reads(live_env) == before
    text = as_read(shown_text(at))
    assert "Traceback" not in text and "Each action in full" in text
    kept = "keyword suggestions could not be read" in text or "The keyword suggestions" not in text
    assert kept, text
    assert link_to_list(at) == [f"site={SITE}"]
