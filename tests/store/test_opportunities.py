"""The opportunities list of one of the demo's own sites, as a marketer reads it: every suggested,
tracked and watched keyword ranked by its score with the parts that make it, the watched keyword's
recorded top 10 used without a call, the calls said before they are spent and never more than allowed,
and the command's CSV holding the same numbers as the function (against the sandbox, on SQLite and
PostgreSQL)."""

from __future__ import annotations

import html
import io
import re
from datetime import UTC, datetime

import numpy as np
import pandas as pd
import pytest

from analysis.market import DEFAULT_CTR
from client import ApiClient
from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY, SandboxServer
from sandbox.clock import today as sandbox_today
from services.opportunities import (
    KEYWORD_REPORT,
    RECORDED,
    calls_needed,
    gather_opportunities,
    read_candidates,
)
from services.reports.branding import Branding
from services.reports.content import gather
from services.reports.document import render_html
from store import HistoryStore
from store.reports.period import Period
from tests.store.commands import StoreCommand

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "northwind-coffee.com"
WATCHED = "cold brew coffee"


def _reports_asked(sandbox: SandboxServer) -> int:
    """The keyword reports the sandbox was asked for (GET /keywords, whatever the keyword)."""
    rows = sandbox.state.stats()["requests"]
    return sum(row["count"] for row in rows if row["method"] == "GET" and row["path"] == "/api/v1/keywords")


def _watch_and_record(store: HistoryStore, demo: ApiClient) -> None:
    """As after a daily snapshot: the site is one of the account's own, and one keyword watched for it
    has its top 10 and the site's DR recorded today."""
    day = datetime.now(UTC).date()
    store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
    store.watchlist.watch(ACCOUNT, "keyword", WATCHED, site=SITE)
    store.snapshots.record_read(ACCOUNT, "lookup", SITE, demo.lookup(SITE), day, "job")
    report = demo.keyword_report(WATCHED, SITE)
    store.snapshots.record_read(ACCOUNT, "keyword_report", (WATCHED, SITE), report, day, "job")


def test_the_list_ranks_every_keyword_with_parts_that_add_up_and_spends_the_calls_it_said(
    store: HistoryStore, demo: ApiClient, sandbox: SandboxServer
) -> None:
    _watch_and_record(store, demo)
    before = _reports_asked(sandbox)
    candidates = read_candidates(store, demo, ACCOUNT, SITE)
    assert _reports_asked(sandbox) == before, "suggestions and tracked keywords cost no keyword report"
    said = calls_needed(candidates)
    lines: list[str] = []
    found = gather_opportunities(
        store, demo, ACCOUNT, SITE, ctr=DEFAULT_CTR, candidates=candidates, progress=lines.append
    )
    assert found.ok, found.problem_lines()
    assert found.calls == said == _reports_asked(sandbox) - before > 0
    assert len(lines) == said and all(line.endswith(": read") for line in lines)

    scored = found.scored
    suggested = {s.keyword for s in demo.keyword_suggestions(SITE).suggestions}
    tracked = {k.keyword for k in demo.tracked_keywords("northwind-coffee-com").keywords}
    assert set(scored["keyword"]) == suggested | tracked | {WATCHED}
    ranked = scored["score"].dropna()
    assert len(ranked) >= len(suggested), "every suggestion has a volume and a top 10: each is scored"
    assert ranked.is_monotonic_decreasing and ranked.index.tolist() == list(range(len(ranked)))
    assert bool(scored.loc[0, "striking_distance"]), "the first opportunity is within striking distance"
    assert scored.loc[scored["keyword"].isin(suggested), "position"].between(4, 30).all()

    # The parts add up: clicks at target minus clicks now, divided by the DR points lacking (at least 1).
    rows = scored.dropna(subset=["score"])
    lacking = np.maximum((rows["median_dr"] - rows["site_dr"]).clip(lower=0), 1)
    gained = (rows["volume"] * (rows["ctr_target"] - rows["ctr_now"]).clip(lower=0) / 100).to_numpy()
    assert np.allclose(rows["gap"], rows["median_dr"] - rows["site_dr"])
    assert np.allclose(rows["clicks_gained"], gained)
    assert np.allclose(rows["score"], gained * 100 / lacking)
    assert rows["ctr_target"].eq(DEFAULT_CTR[2]).all(), "scored for position 3 by default"

    # The watched keyword: its recorded top 10, no call for it, and when it becomes winnable in words.
    watched = scored.set_index("keyword").loc[WATCHED]
    assert watched["top10_from"] == RECORDED
    assert watched["median_state"] == "too_little_history"
    assert watched["median_words"].startswith("Not enough history yet")
    assert set(found.projections[WATCHED]) == {"median", "lowest"}
    read = scored.loc[scored["top10_from"] == KEYWORD_REPORT, "keyword"]
    assert WATCHED not in set(read) and len(read) == found.calls


def test_the_command_prints_the_same_numbers_as_the_function_and_keeps_to_its_calls(
    store: HistoryStore, store_url: str, demo: ApiClient, sandbox: SandboxServer, demo_command: StoreCommand
) -> None:
    _watch_and_record(store, demo)
    found = gather_opportunities(store, demo, ACCOUNT, SITE, ctr=DEFAULT_CTR, target=2)
    before = _reports_asked(sandbox)
    code, out, err = demo_command(
        "opportunities", "--site", SITE, "--target", "2", "--csv", "--database-url", store_url
    )
    assert code == 0, err
    assert "Traceback" not in err and f"{found.calls} keyword-report calls" in err
    printed = pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=[""])
    assert printed["keyword"].tolist() == found.scored["keyword"].tolist()
    for column in ("position", "volume", "median_dr", "min_dr", "clicks_gained", "score"):
        assert np.allclose(printed[column], found.scored[column].astype(float), atol=0.005, equal_nan=True)
    assert {"median_words", "median_month", "median_band", "lowest_words"} <= set(printed.columns)
    assert _reports_asked(sandbox) - before == found.calls

    before = _reports_asked(sandbox)
    code, out, err = demo_command(
        "opportunities", "--site", SITE, "--max-calls", "2", "--database-url", store_url
    )
    assert code == 0, err
    assert _reports_asked(sandbox) - before == 2, "never more keyword reports than --max-calls"
    assert f"{found.calls} without a recorded top 10: 2 keyword-report calls" in err
    assert "over the limit of 2 keyword-report calls" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--site", "not a domain"), "The site cannot be used"),
        (("--site", "semrush.com"), "is not one of your sites"),
        (("--site", SITE, "--target", "11"), "The target position must be from 1 to 10"),
    ],
)
def test_what_cannot_be_asked_is_said_and_spends_nothing(
    store: HistoryStore,
    store_url: str,
    demo: ApiClient,
    sandbox: SandboxServer,
    demo_command: StoreCommand,
    args: tuple[str, ...],
    words: str,
) -> None:
    _watch_and_record(store, demo)
    before = sandbox.state.total_requests()
    code, _out, err = demo_command("opportunities", *args, "--database-url", store_url)
    assert code == 2 and words in err
    assert sandbox.state.total_requests() == before


def test_a_watched_keyword_the_site_tracks_keeps_its_recorded_position_when_the_tracked_read_fails(
    store: HistoryStore, demo: ApiClient, sandbox: SandboxServer
) -> None:
    # The daily job recorded the site's tracked keywords (under its slug); today the service fails on
    # them: a tracked keyword also watched for the site still has its position and volume, from the history.
    day = datetime.now(UTC).date()
    listed = demo.tracked_keywords("northwind-coffee-com")
    suggested = {s.keyword for s in demo.keyword_suggestions(SITE).suggestions}
    keyword = next(
        k for k in listed.keywords if k.keyword not in suggested and k.snapshot and k.snapshot.user_position
    )
    store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
    store.watchlist.watch(ACCOUNT, "keyword", keyword.keyword, site=SITE)
    store.snapshots.record_read(ACCOUNT, "lookup", SITE, demo.lookup(SITE), day, "job")
    store.snapshots.record_read(ACCOUNT, "tracked_keywords", "northwind-coffee-com", listed, day, "job")
    sandbox.state.add_fault("tracked_keywords", 503, key=DEMO_KEY, retry_after=0)
    row = read_candidates(store, demo, ACCOUNT, SITE).rows[keyword.keyword]
    snapshot = keyword.snapshot
    assert snapshot is not None
    assert row["position"] == snapshot.user_position
    assert row["volume"] == snapshot.search_volume and row["volume_source"] == "search volume"


def test_the_reports_whats_next_says_the_numbers_and_months_the_command_prints(
    store: HistoryStore, store_url: str, demo_command: StoreCommand
) -> None:
    # The demo's history up to today; this month's report of example.com against the command's CSV.
    today = sandbox_today()
    seed_demo_history(store, ACCOUNT, DEMO_KEY, today)
    site = "example.com"
    report = render_html(gather(store, ACCOUNT, site, Period(today.replace(day=1), today)), Branding(), {})
    section = report.split("<h2>What's next</h2>")[1].split("</section>")[0]
    code, out, err = demo_command("opportunities", "--site", site, "--csv", "--database-url", store_url)
    assert code == 0, err
    printed = pd.read_csv(io.StringIO(out), keep_default_na=False, na_values=[""]).set_index("keyword")
    rows = re.findall(r"<tr><td>([^<]+)</td>((?:<td[^>]*>[^<]*</td>)+)</tr>", section)
    kinds = {len(re.findall(r"<td", cells)) for _, cells in rows}
    assert kinds == {5, 2}, section  # opportunities and watched keywords' outlooks, both listed
    for keyword, cells in rows:
        values = [html.unescape(v) for v in re.findall(r"<td[^>]*>([^<]*)</td>", cells)]
        command = printed.loc[html.unescape(keyword)]
        if len(values) == 5:  # an opportunity: position, volume, clicks gained, DR lacking, score
            numbers = [float(v.replace(",", "")) for v in values]
            expected = [command[c] for c in ("position", "volume", "clicks_gained", "difficulty", "score")]
            assert np.allclose(numbers, expected, atol=0.5), (keyword, values, expected)
        else:  # a watched keyword: when it becomes winnable, against the median and the lowest DR
            assert values == [command["median_words"], command["lowest_words"]], keyword
