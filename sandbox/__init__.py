"""A local v1 API with deterministic demo data: the app's demo mode and every test's peer.

Run it with ``python -m sandbox`` or in-process with ``SandboxServer``. It speaks the spec's
contract exactly (paths, top-level keys, camelCase fields, statuses, quota headers), building its
answers from ``client.models`` so the two sides cannot drift.

The names below are loaded on first use: the app reads the demo keys on every run, but only a
server in Sandbox mode needs the server itself and its demo data in memory.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from sandbox.accounts import DEMO_KEY, FREE_KEY

if TYPE_CHECKING:
    from sandbox.app import create_app
    from sandbox.config import SandboxConfig
    from sandbox.server import SandboxServer
    from sandbox.state import SandboxState

__all__ = ["DEMO_KEY", "FREE_KEY", "SandboxConfig", "SandboxServer", "SandboxState", "create_app"]

_LAZY = {
    "create_app": "sandbox.app",
    "SandboxConfig": "sandbox.config",
    "SandboxServer": "sandbox.server",
    "SandboxState": "sandbox.state",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
