"""Which service this browser session talks to, and with which key.

Resolved on every script run from the settings (environment, then ``.streamlit/secrets.toml``) and
the sidebar choices kept in ``st.session_state``. With no key, the embedded sandbox is started once per
server process and used with its demo key, so a newcomer sees the whole product in one command.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import streamlit as st
from pydantic import SecretStr

from client.settings import Settings, key_fingerprint
from sandbox import DEMO_KEY, FREE_KEY

if TYPE_CHECKING:
    from sandbox.server import SandboxServer

Mode = Literal["sandbox", "live"]

MODE_KEY = "data_source"
SESSION_KEY_KEY = "session_api_key"
DEMO_ACCOUNT_KEY = "demo_account"
DEMO_ACCOUNTS: dict[str, str] = {
    DEMO_KEY: "Growth program (vdr_demo)",
    FREE_KEY: "Free plan (vdr_free)",
}


@dataclass(frozen=True)
class Connection:
    """Everything the data layer needs; the key stays a SecretStr so it never prints."""

    mode: Mode
    base_url: str
    api_key: SecretStr | None = field(repr=False)
    key_source: str
    timeout_s: float = 20.0

    @property
    def fingerprint(self) -> str:
        return key_fingerprint(self.api_key.get_secret_value() if self.api_key else None)

    @property
    def has_key(self) -> bool:
        return self.api_key is not None


@st.cache_resource(show_spinner="Starting the demo API…")
def embedded_sandbox() -> SandboxServer:
    """One sandbox server per Streamlit process, on a free loopback port (imported only when used:
    a Live-mode server never loads the sandbox or its demo data)."""
    from sandbox.server import SandboxServer

    server = SandboxServer(host="127.0.0.1", port=0)
    server.start()
    return server


def configured_settings() -> Settings:
    return Settings()


def default_mode(settings: Settings) -> Mode:
    return "live" if settings.api_key is not None else "sandbox"


def current_connection(settings: Settings | None = None) -> Connection:
    """The connection for this run, from settings and the sidebar's choices."""
    settings = settings or configured_settings()
    mode: Mode = st.session_state.get(MODE_KEY) or default_mode(settings)
    if mode == "sandbox":
        demo_key = st.session_state.get(DEMO_ACCOUNT_KEY) or DEMO_KEY
        if demo_key not in DEMO_ACCOUNTS:
            demo_key = DEMO_KEY
        return Connection(
            "sandbox", embedded_sandbox().base_url, SecretStr(demo_key), "demo account", settings.timeout_s
        )
    session_key = (st.session_state.get(SESSION_KEY_KEY) or "").strip()
    if session_key:
        return Connection(
            "live", settings.api_base, SecretStr(session_key), "entered in this session", settings.timeout_s
        )
    if settings.api_key is not None:
        return Connection(
            "live", settings.api_base, settings.api_key, "server configuration", settings.timeout_s
        )
    return Connection("live", settings.api_base, None, "missing", settings.timeout_s)
