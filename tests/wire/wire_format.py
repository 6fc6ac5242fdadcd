"""What the sandbox's wire-format tests share: the API prefix, the Authorization header, the camelCase
rule every key of a body follows and the body of a plan gate."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from sandbox import DEMO_KEY

API = "/api/v1"
CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*$")
#: The keys of a 402 plan gate's body, and no others.
GATE_FIELDS = {"error", "upgradeUrl", "requiredPlan", "blockedFeature"}


def auth(key: str | None = DEMO_KEY) -> dict[str, str]:
    """The Authorization header for ``key``; none at all for ``None``."""
    return {"Authorization": f"Bearer {key}"} if key else {}


def all_keys(value: Any) -> Iterator[str]:
    """Every key of a JSON body, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from all_keys(v)
    elif isinstance(value, list):
        for item in value:
            yield from all_keys(item)


def assert_camel_case(body: Any) -> None:
    bad = sorted({k for k in all_keys(body) if not CAMEL.match(k)})
    assert not bad, f"keys not in camelCase: {bad}"
