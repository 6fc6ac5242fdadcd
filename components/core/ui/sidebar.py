"""The sidebar's connection settings: sandbox or live, the key's status (never the key), quota left,
and how many alerts are open (a link to the Alerts page, shown only when there are any).

The quota bar is coloured by how much is left (green, amber, red), not in the theme's accent colour:
a full quota drawn red reads as an alarm.
"""

from __future__ import annotations

from typing import Literal

import streamlit as st

from analysis.figures.common import DOWN, UP
from analysis.text import escape_md
from analysis.wording import counted, whole_number
from client.models import QuotaInfo
from client.safe_urls import display_url
from components.common.access_rules import may_write
from components.core.auth.access import current_person, sign_in_configured
from components.core.cache import data
from components.core.cache.connection import (
    DEMO_ACCOUNT_KEY,
    DEMO_ACCOUNTS,
    MODE_KEY,
    SESSION_KEY_KEY,
    Connection,
    configured_settings,
    current_connection,
    default_mode,
)
from components.core.history.alerts import open_alert_count, remember_drawn
from components.core.nav.pages import ALERTS

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
    left = whole_number(quota.remaining) if quota.remaining is not None else "unknown"
    of = f" of {whole_number(quota.limit)}" if quota.limit is not None else ""
    tier = f" · plan: {escape_md(quota.tier)}" if quota.tier else ""  # the service's words: inert
    return f"Quota left: {left}{of}{tier}"


#: The container around the quota bar, so its colour rule reaches that bar and no other.
QUOTA_BAR_KEY = "quota_bar"
QuotaLevel = Literal["plenty", "low", "nearly out"]
#: The share of the limit left from which each level starts, most first; below the last: nearly out.
QUOTA_LEVEL_FROM: tuple[tuple[float, QuotaLevel], ...] = ((0.25, "plenty"), (0.10, "low"))
#: Each level's bar colour and, when it needs saying, the words under the bar.
QUOTA_LOOK: dict[QuotaLevel, tuple[str, str | None]] = {
    "plenty": (UP, None),
    "low": ("#d99a00", "Running low."),
    "nearly out": (DOWN, "Nearly used up: checks that spend quota may be refused."),
}


def quota_share(remaining: int, limit: int) -> float:
    """The share of the limit left, 0 to 1 (a service that reports more left than its limit is full)."""
    return min(1.0, max(0.0, remaining / limit)) if limit > 0 else 0.0


def quota_level(remaining: int, limit: int) -> QuotaLevel:
    """How much quota is left: plenty (a quarter or more), low (a tenth or more), else nearly out."""
    share = quota_share(remaining, limit)
    return next((level for start, level in QUOTA_LEVEL_FROM if share >= start), "nearly out")


def quota_colour(remaining: int, limit: int) -> str:
    """The quota bar's colour: green with plenty left, amber when low, red when nearly out."""
    return QUOTA_LOOK[quota_level(remaining, limit)][0]


def quota_bar_style(colour: str) -> str:
    """A style rule that fills the sidebar's quota bar in ``colour``: Streamlit draws every progress bar
    in the theme's accent colour (red by default), which says nothing about how much is left."""
    fill = f'.st-key-{QUOTA_BAR_KEY} [data-testid="stProgressBarTrack"] > div'
    return f"<style>{fill} {{ background-color: {colour}; }}</style>"


def own_key_allowed() -> bool:
    """Whether this person may use a key of their own: everyone without sign-in; with sign-in, editors
    and admins (a viewer reads with the team's key, which is never shown). A key typed before the
    person lost the right is dropped, so it is never used again."""
    person = current_person()
    if not sign_in_configured() or (person.role is not None and may_write(person.role)):
        return True
    st.session_state.pop(SESSION_KEY_KEY, None)
    return False


def render_sidebar() -> Connection:
    """Draw the settings and return the connection this run uses."""
    settings = configured_settings()
    with st.sidebar:
        # First, where it is seen: the mode's widget keeps its value in the session, so the connection
        # read before the widget is drawn is the one it will return.
        open_alerts_link(current_connection(settings))
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
        elif own_key_allowed():
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
            st.caption(f"Service: {escape_md(display_url(conn.base_url))}")
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
            remaining, limit = quota.remaining, quota.limit
            with st.container(key=QUOTA_BAR_KEY, gap=None):
                st.progress(quota_share(remaining, limit))
                # A constant rule with a colour of ours: no text from the service goes into it.
                st.markdown(quota_bar_style(quota_colour(remaining, limit)), unsafe_allow_html=True)
            words = QUOTA_LOOK[quota_level(remaining, limit)][1]
            if words:
                st.caption(words)
    return conn


def open_alerts_words(count: int) -> str:
    return counted(count, "open alert")


def open_alerts_link(conn: Connection) -> None:
    """ "3 open alerts", linking to the Alerts page; nothing when none are open or history is unavailable."""
    count = open_alert_count(conn)
    if count is not None:
        remember_drawn(count)
    if count:
        st.page_link(
            ALERTS.file,
            label=open_alerts_words(count),
            icon=":material/notifications_active:",
            help="Alerts nobody has acknowledged yet.",
        )
