"""Over HTTP, the sandbox answers for its day: the session's sandbox (pinned to the epoch day) and a
sandbox configured with another day give exactly what ``sandbox.demo_history`` computes for that
day, so demo history seeded from those functions ends where the live answers begin (checked on a
store seeded the way the app seeds it in Sandbox mode)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pandas as pd
import pytest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox.clock import EPOCH_DAY
from sandbox.data import dr_for
from sandbox.demo_history import (
    DEMO_DAYS,
    WATCHED_SINCE,
    asking_domain,
    demo_subjects,
    keyword_report_on,
    lookup_on,
    tracked_on,
    trust_map_on,
)
from store import HistoryStore

API = "/api/v1"
LATER_DAY = date(2025, 8, 29)
DEMO = demo_subjects(DEMO_KEY)


@pytest.fixture(scope="module")
def later() -> Iterator[SandboxServer]:
    with SandboxServer(SandboxConfig(today=LATER_DAY), host="127.0.0.1", port=0) as server:
        yield server


def _get(server: SandboxServer, path: str) -> dict:
    response = httpx.get(
        f"{server.base_url}{API}{path}", headers={"Authorization": f"Bearer {DEMO_KEY}"}, timeout=10
    )
    assert response.status_code == 200, response.text
    return response.json()


def _answers(server: SandboxServer, domain: str) -> tuple[dict, dict, int]:
    return (
        _get(server, f"/lookup/{domain}")["lookup"],
        _get(server, f"/map/{domain}")["map"],
        _get(server, f"/dr/{domain}")["dr"]["dr"],
    )


@pytest.mark.parametrize("domain", ["example.com", "semrush.com", "northwind-coffee.com"])
def test_a_sandbox_set_to_another_day_answers_that_days_numbers(later: SandboxServer, domain: str) -> None:
    looked_up, mapped, rating = _answers(later, domain)
    assert looked_up == lookup_on(domain, LATER_DAY, later.base_url).to_json_dict()
    assert mapped == trust_map_on(domain, LATER_DAY).to_json_dict()
    assert rating == dr_for(domain, LATER_DAY) == looked_up["authority"]["dr"]


def test_the_session_sandbox_answers_the_epoch_days_numbers(sandbox: SandboxServer) -> None:
    for domain in ("example.com", "ahrefs.com"):
        looked_up, mapped, rating = _answers(sandbox, domain)
        assert looked_up == lookup_on(domain, EPOCH_DAY, sandbox.base_url).to_json_dict()
        assert mapped == trust_map_on(domain, EPOCH_DAY).to_json_dict()
        assert rating == dr_for(domain, EPOCH_DAY)


def test_the_days_differ_where_a_user_would_look(sandbox: SandboxServer, later: SandboxServer) -> None:
    """Eight months on, the demo's own site has climbed and its Trust Map has changed members."""
    then_lookup, then_map, _ = _answers(sandbox, "example.com")
    now_lookup, now_map, _ = _answers(later, "example.com")
    assert now_lookup["authority"]["dr"] != then_lookup["authority"]["dr"]
    assert now_lookup["evidence"]["traffic"] != then_lookup["evidence"]["traffic"]
    then_names = {row["domain"] for row in then_map["domains"]}
    now_names = {row["domain"] for row in now_map["domains"]}
    assert then_names != now_names and len(then_names & now_names) >= 40


def test_tracked_keywords_answer_the_days_positions(sandbox: SandboxServer, later: SandboxServer) -> None:
    for server, day in ((sandbox, EPOCH_DAY), (later, LATER_DAY)):
        for site in DEMO.own_sites:
            listing = _get(server, f"/sites/{site.replace('.', '-')}/keywords")
            assert {k: v for k, v in listing.items() if k != "ok"} == tracked_on(
                DEMO_KEY, site, day
            ).to_json_dict()
    then = _get(sandbox, "/sites/example-com/keywords")["keywords"]
    now = _get(later, "/sites/example-com/keywords")["keywords"]
    assert [k["snapshot"]["userPosition"] for k in then] != [k["snapshot"]["userPosition"] for k in now]


def _report(server: SandboxServer, keyword: str, domain: str | None) -> dict:
    query = urlencode({"keyword": keyword, **({"domain": domain} if domain else {})})
    return _get(server, f"/keywords?{query}")["report"]


def test_watched_keywords_answer_the_days_report(sandbox: SandboxServer, later: SandboxServer) -> None:
    for server, day in ((sandbox, EPOCH_DAY), (later, LATER_DAY)):
        for keyword in DEMO.keywords:
            domain = asking_domain(DEMO_KEY, keyword)
            answered = _report(server, keyword, domain)
            expected = keyword_report_on(keyword, day, domain, cached=answered["cached"])
            assert answered == expected.to_json_dict(), (keyword, day)
    keyword = DEMO.keywords[0]
    domain = asking_domain(DEMO_KEY, keyword)
    then, now = _report(sandbox, keyword, domain), _report(later, keyword, domain)
    assert now["user"]["dr"] != then["user"]["dr"]  # the asking site's rating moved with the day
    assert [r["dr"] for r in now["results"]] != [r["dr"] for r in then["results"]]


def test_seeded_demo_history_watches_keywords_whose_last_day_is_the_live_report(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    """What the History page's Watched keywords shows in Sandbox mode: every demo day of each watched
    keyword, ending with what the sandbox answers today."""
    account = key_fingerprint(DEMO_KEY)
    with HistoryStore.open(f"sqlite:///{tmp_path / 'history.sqlite3'}") as store:
        seed_demo_history(store, account, DEMO_KEY, EPOCH_DAY)
        watched = {
            (item.subject, item.origin, item.site)
            for item in store.watchlist.entries(account)
            if item.kind == "keyword"
        }
        rows = store.queries.keyword_history(account, None, None)
    # Each watched keyword is watched, and recorded, for the site it is researched for.
    assert watched == {(keyword, "demo", asking_domain(DEMO_KEY, keyword)) for keyword in DEMO.keywords}
    assert set(rows["source"]) == {"demo"}
    for keyword in DEMO.keywords:
        days = rows[(rows["keyword"] == keyword) & (rows["site"] == asking_domain(DEMO_KEY, keyword))]
        kept = WATCHED_SINCE.get(DEMO_KEY, {}).get(keyword, DEMO_DAYS)  # a keyword watched recently: fewer
        assert list(days["day"].dt.date) == [EPOCH_DAY - timedelta(days=back) for back in range(kept)][::-1]
        last = days.iloc[-1]
        live = _report(sandbox, keyword, asking_domain(DEMO_KEY, keyword))
        shown = next((r["position"] for r in live["results"] if r["domain"] == live["user"]["domain"]), None)
        assert (last["median_dr"], last["min_dr"], last["gap"]) == (
            live["medianDr"],
            live["minDr"],
            live["user"]["gap"],
        )
        assert (None if pd.isna(last["position"]) else int(last["position"])) == shown  # None: not in top 10
