"""Over HTTP, the sandbox answers for its day: the session's sandbox (pinned to the epoch day) and a
sandbox configured with another day give exactly what ``sandbox.demo_history`` computes for that
day, so demo history seeded from those functions ends where the live answers begin."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import httpx
import pytest

from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox.clock import EPOCH_DAY
from sandbox.data import dr_for
from sandbox.demo_history import demo_subjects, lookup_on, tracked_on, trust_map_on

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
