"""The sidebar's connection settings: sandbox or live, the key's status (never the key), quota left."""

from __future__ import annotations

import streamlit as st

from client.models import QuotaInfo
from components.common.text import escape_md, fmt_int
from components.core import data
from components.core.connection import (
    DEMO_ACCOUNT_KEY,
    DEMO_ACCOUNTS,
    MODE_KEY,
    SESSION_KEY_KEY,
    Connection,
    configured_settings,
    current_connection,
    default_mode,
)

MODE_LABELS = {"sandbox": "Sandbox demo data", "live": "Live API"}
#: Session-state keys starting with this hold results fetched with one key; dropped on a key change.
RESULT_PREFIX = "result:"
_CONNECTION_ID = "_connection_id"


def _forget_results_of_other_connections(conn: Connection) -> None:
    """When the key or service changes, nothing fetched with the old one stays in this session."""
    identity = f"{conn.base_url}|{conn.fingerprint}"
    if st.session_state.get(_CONNECTION_ID) not in (None, identity):
        for name in [k for k in st.session_state if str(k).startswith(RESULT_PREFIX)]:
            del st.session_state[name]
    st.session_state[_CONNECTION_ID] = identity


def quota_text(quota: QuotaInfo | None) -> str:
    if quota is None or (quota.remaining is None and quota.limit is None):
        return "Quota left: unknown until the service reports it."
    left = fmt_int(quota.remaining) if quota.remaining is not None else "unknown"
    of = f" of {fmt_int(quota.limit)}" if quota.limit is not None else ""
    tier = f" · plan: {quota.tier}" if quota.tier else ""
    return f"Quota left: {left}{of}{tier}"


def render_sidebar() -> Connection:
    """Draw the settings and return the connection this run uses."""
    settings = configured_settings()
    with st.sidebar:
        st.subheader("Connection", anchor=False)
        st.radio(
            "Data source",
            options=list(MODE_LABELS),
            format_func=MODE_LABELS.__getitem__,
            index=list(MODE_LABELS).index(default_mode(settings)),
            key=MODE_KEY,
            help="The sandbox is a built-in copy of the v1 API with made-up, repeatable demo data.",
        )
        if st.session_state.get(MODE_KEY) == "sandbox":
            st.selectbox(
                "Demo account",
                options=list(DEMO_ACCOUNTS),
                format_func=DEMO_ACCOUNTS.__getitem__,
                key=DEMO_ACCOUNT_KEY,
                help="The free account shows what a key without a growth program sees.",
            )
        else:
            st.text_input(
                "API key for this session",
                type="password",
                key=SESSION_KEY_KEY,
                placeholder="vdr_…",
                help="Used only in this browser session and never shown. Leave empty to use the "
                "server's VERIFIEDDR_API_KEY.",
            )
        conn = current_connection(settings)
        _forget_results_of_other_connections(conn)
        if conn.mode == "sandbox":
            st.info(
                "**Demo data.** Numbers come from the built-in sandbox, not from VerifiedDR.",
                icon=":material/science:",
            )
        else:
            st.caption(f"Service: {escape_md(conn.base_url)}")
            if conn.has_key:
                st.caption(f"API key: set ({conn.key_source})")
            else:
                st.warning(
                    "No API key. Enter one above, set VERIFIEDDR_API_KEY, or use Sandbox demo data.",
                    icon=":material/key_off:",
                )
        quota = data.quota(conn) if conn.has_key else None
        st.caption(quota_text(quota))
        if quota and quota.limit and quota.remaining is not None:
            st.progress(min(1.0, max(0.0, quota.remaining / quota.limit)))
    return conn
