"""Fixtures of the unit tests. Unit tests check pure code: no server, no network. The guard below makes
that a rule rather than a habit: a unit test that opens a connection fails and says where it belongs
(tests/wire/ for the client against the sandbox, tests/apptest/ for pages)."""

from __future__ import annotations

import socket
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_sock: socket.socket, address: Any, *_: Any) -> None:
        raise AssertionError(f"a unit test connected to {address!r}: it belongs in tests/wire/")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
