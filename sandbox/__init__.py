"""A local v1 API with deterministic demo data: the app's demo mode and every test's peer.

Run it with ``python -m sandbox`` or in-process with ``SandboxServer``. It speaks the spec's
contract exactly (paths, top-level keys, camelCase fields, statuses, quota headers), building its
answers from ``client.models`` so the two sides cannot drift.
"""

from sandbox.accounts import DEMO_KEY, FREE_KEY
from sandbox.app import create_app
from sandbox.config import SandboxConfig
from sandbox.server import SandboxServer
from sandbox.state import SandboxState

__all__ = ["DEMO_KEY", "FREE_KEY", "SandboxConfig", "SandboxServer", "SandboxState", "create_app"]
