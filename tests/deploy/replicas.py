"""The app processes of a deployment test: two or more ``streamlit run app.py`` in Live mode against one
sandbox, sharing one history database, one Streamlit cookie secret and whatever else ``env`` names (the
Redis cache), as deploy/systemd runs them from one env file.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.harness import AppProcess, app_process
from sandbox import DEMO_KEY, SandboxServer


@dataclass(frozen=True)
class Replica:
    """One app process: its address, its ``127.0.0.1:PORT`` as nginx names it, and its log."""

    url: str
    log: Path
    app: AppProcess

    @property
    def upstream(self) -> str:
        return self.url.removeprefix("http://")

    def stop(self) -> None:
        """End the process (as a crash or a restart would); the fixture's teardown then has nothing to do."""
        self.app.proc.terminate()
        self.app.proc.wait(timeout=20)


@contextlib.contextmanager
def started_replicas(
    sandbox: SandboxServer, history_url: str, folder: Path, count: int = 2, env: dict[str, str] | None = None
) -> Iterator[list[Replica]]:
    """``count`` app processes sharing the database, the cookie secret and ``env`` (e.g. a Redis URL)."""
    cookie_secret = secrets.token_urlsafe(24)
    with contextlib.ExitStack() as stack, pytest.MonkeyPatch.context() as patch:
        # As deploy/systemd's env file sets it (Streamlit refuses this one on the command line).
        patch.setenv("STREAMLIT_SERVER_COOKIE_SECRET", cookie_secret)
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        replicas = []
        for index in range(count):
            log = folder / f"replica-{index}.log"
            app = stack.enter_context(
                app_process(
                    api_base=sandbox.base_url,
                    api_key=DEMO_KEY,
                    database_url=history_url,
                    log_path=log,
                )
            )
            replicas.append(Replica(app.url, log, app))
        yield replicas
