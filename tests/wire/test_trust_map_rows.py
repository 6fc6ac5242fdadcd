"""A Trust Map answer with an unusable row, read by the client over real HTTP: the usable rows are kept
and the unusable one is named (its place, what was wrong, its name as plain text), never fatal.

The sandbox never sends such a row (it is faithful to the spec): ``tests.hostile_map`` serves the
sandbox's own answer with its referring domains cut to three and the row a tester met added.
"""

from __future__ import annotations

import httpx

from client import ApiClient
from client.map_rows import SkippedRow
from client.models import TrustMap
from components.core.cache.cache_records import Record, decode, encode
from sandbox import DEMO_KEY, SandboxServer
from tests.hostile_map import HOSTILE_ROW, map_in_front

SITE = "stripe.com"


def test_the_client_keeps_the_three_usable_rows_and_names_the_fourth(server: SandboxServer) -> None:
    with map_in_front(server.base_url) as base, ApiClient(base, DEMO_KEY) as api:
        trust_map = api.trust_map(SITE)
    with ApiClient(server.base_url, DEMO_KEY) as api:
        faithful = api.trust_map(SITE)
    assert [row.domain for row in trust_map.domains] == [row.domain for row in faithful.domains[:3]]
    assert trust_map.skipped == [SkippedRow(index=4, problem="not_a_domain", name=HOSTILE_ROW["domain"])]
    assert trust_map.skipped[0].words == "row 4 (\"=cmd|' /C calc'!A0\"): its name is not a domain name"
    assert trust_map.total_domains == faithful.total_domains and faithful.skipped == []


def test_the_skipped_rows_survive_the_shared_cache_and_the_sandbox_never_writes_them(
    server: SandboxServer,
) -> None:
    with map_in_front(server.base_url) as base, ApiClient(base, DEMO_KEY) as api:
        trust_map = api.trust_map(SITE)
    again = decode("trust_map", encode("trust_map", Record(value=trust_map)), base).value
    assert isinstance(again, TrustMap)
    assert again.skipped == trust_map.skipped and again.domains == trust_map.domains
    raw = httpx.get(
        f"{server.base_url}/api/v1/map/{SITE}", headers={"Authorization": f"Bearer {DEMO_KEY}"}
    ).json()
    assert "skipped" not in raw["map"]  # the spec's answer, as the service writes it
