"""Streamlit pieces of history shared by the History page's tabs and by other pages: the Watch button,
the link to the History page, the notices (demo data, database unavailable) and the inputs several
tabs share (the period, a subject linked from another page, the domains to choose from).

A Watch button puts a domain or keyword on the account's watchlist (after checking the service can
measure it, and recording today's numbers at once) and links to the History page for it. When the database is
unavailable, the button's place says so in plain words and every page goes on working.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal

import pandas as pd
import streamlit as st

from analysis.figures import history_frames as frames
from analysis.links import TAB_PARAM, history_query, subject_param
from analysis.text import escape_md
from client.errors import ApiError
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.history import store as history
from components.core.history.source import HistorySource
from components.core.nav.pages import HISTORY, link_to
from components.core.ui.errors import show_error
from components.core.writes.writes import audited_store_write
from components.history.watching import watch_subject
from components.keywords.widgets import owned_sites

#: The tabs a link opens are the links' own words (``analysis.links``); the watchlist is not linked to.
TAB_KEY = TAB_PARAM
WATCHLIST_TAB = "Watchlist"
Kind = Literal["domain", "keyword"]
#: Where a watchlist change leaves its message for the next run to show.
FLASH = "_history_watch_flash"
DEFAULT_PERIOD = "90 days"


def history_link(kind: Kind, subject: str, *, label: str | None = None, site: str | None = None) -> None:
    """A link to the History page open on this domain's trends or this keyword's positions (for
    ``site``, the domain a watched keyword is measured for).

    The subject travels as ``history_domain`` / ``history_keyword``: the pages that show the link keep
    their own ``domain`` and ``keyword`` boxes in the URL, and Streamlit drops those names from a link
    when it leaves such a page, so the History page would open on its defaults.
    """
    params = history_query(kind, subject, site=site)
    link_to(HISTORY, label=label or f"History of {escape_md(subject)}", query_params=params)


def guarded(render: Callable[[], None]) -> Callable[[], None]:
    """``render``, except that a database failing mid-page is said in plain words instead of a traceback."""

    def run() -> None:
        from store import StoreUnavailable

        try:
            render()
        except StoreUnavailable as exc:
            history.store_failed(exc)
            unavailable_notice()

    return run


def unavailable_reason() -> str:
    problem = history.history_problem() or "the history database could not be reached"
    return f"{problem[:1].upper()}{problem[1:]}"


def page_history(conn: Connection) -> HistorySource:
    """The rows a History-section page reads (Sandbox mode: seeded with demo history first, and labelled
    so); when the database cannot be used, the page says why and stops here."""
    is_demo = history.ensure_demo_history(conn)
    source = history.page_source(conn)
    if source is None:
        unavailable_notice()
        st.stop()
    if is_demo:
        demo_label()
    return source


def unavailable_notice() -> None:
    """What the History page says when the database cannot be used: why, and that the rest works."""
    st.warning(
        f"**{history.UNAVAILABLE}.** {escape_md(unavailable_reason())}.  \n"
        "Every other page works as usual; nothing is recorded until the database can be reached again "
        "(the app tries again every half minute).",
        icon=":material/cloud_off:",
    )
    st.caption(
        f"History database: `{history.database_for_display()}`. Set it with DASHBOARD_DATABASE_URL or "
        "`url` under `[connections.history]` in `.streamlit/secrets.toml`."
    )


def _toggle(conn: Connection, kind: Kind, subject: str, watch: bool, site: str | None) -> None:
    label = subject if kind == "domain" else f"“{subject}” for {site}"
    try:
        if watch:
            outcome = audited_store_write(
                conn,
                "watch",
                label,
                functools.partial(watch_subject, conn, kind, subject, site),
                changed=lambda outcome: outcome.added,
            )
            done = None if outcome is None else outcome.words
        else:
            removed = audited_store_write(
                conn,
                "unwatch",
                label,
                functools.partial(history.set_watched, conn, kind, subject, False, site),
                changed=bool,  # someone else may have done it since this button was drawn
            )
            if removed is None:
                done = None
            elif removed:
                done = f"No longer watching {label}; what was recorded stays."
            else:
                done = f"{label} was not watched."
        if done is None:  # the person may not change the watchlist (refused and audited)
            done = access.write_permission()[1] or access.EDITORS_ONLY
        st.session_state[FLASH] = (subject, done)
    except Exception as exc:  # a failing database never breaks the page that shows the button
        st.session_state[FLASH] = (subject, f"Could not change the watchlist: {getattr(exc, 'reason', exc)}")


def watch_controls(conn: Connection, kind: Kind, subject: str, *, key: str, site: str | None = None) -> None:
    """Watch / Stop watching for ``subject`` (a keyword: for ``site``, the domain it is measured for)
    and a link to its history, in one row.

    Watching first checks the service can measure it, then records today's numbers straight away
    (``components.history.watching``); a keyword without a site cannot be watched (the button says why).
    """
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        if history.history_store() is None:
            st.caption(
                f":material/cloud_off: {history.UNAVAILABLE}: {escape_md(unavailable_reason())}.",
                width="content",
            )
            return
        stored_site = _stored("domain", site) if kind == "keyword" and site else ""
        watching = (kind, _stored(kind, subject), stored_site) in history.watched(conn)
        _, locked = access.write_permission()
        if kind == "keyword" and not site:
            locked = (
                locked
                or "Type your domain above: a keyword is watched for the site whose position it measures."
            )
        st.button(
            "Stop watching" if watching else "Watch",
            key=f"{key}_watch",
            icon=":material/visibility_off:" if watching else ":material/visibility:",
            type="tertiary" if watching else "secondary",
            help=locked
            or (
                "Stop keeping daily history of this " + kind
                if watching
                else f"Keep daily history of this {kind}: its numbers are recorded today and once a day."
            ),
            disabled=locked is not None,
            on_click=_toggle,
            args=(conn, kind, subject, not watching, stored_site or None),
        )
        if watching:
            st.badge("Watched", icon=":material/visibility:", color="green")
        history_link(kind, subject, site=stored_site or None)
        flash = st.session_state.pop(FLASH, None)
        if flash and flash[0] == subject:
            st.caption(escape_md(flash[1]))


def _stored(kind: Kind, subject: str) -> str:
    """The subject as the watchlist stores it (lower case, folded whitespace)."""
    from store import normalise_subject

    try:
        return normalise_subject(kind, subject)
    except Exception:  # a subject the store would refuse is simply not watched
        return subject


def demo_label() -> None:
    st.info(
        "**Demo history.** These trends were generated for the sandbox's demo account so you can see the "
        "page at work; they are not measurements. With your own API key, history starts from your "
        "first snapshot or the first reads of the domains and keywords you watch.",
        icon=":material/science:",
    )


def own_sites(conn: Connection) -> dict[str, str]:
    """Your sites as {domain: slug}; put on the watchlist, since their history is always kept."""
    try:
        listing = data.sites(conn)
    except ApiError as exc:
        show_error(exc, subject="your sites")
        return {}
    mine = owned_sites(conn) or {}
    if listing.sites:
        history.remember_own_sites(conn, list(mine))
    return mine


def period_picker(key: str) -> str:
    """30 / 90 / 365 days / All, kept in the URL."""
    return (
        st.segmented_control(
            "Period",
            list(frames.PERIODS),
            default=DEFAULT_PERIOD,
            required=True,
            key=key,
            bind="query-params",
        )
        or DEFAULT_PERIOD
    )


def one_day_note(rows: pd.DataFrame, all_rows: Callable[[], pd.DataFrame]) -> None:
    """Under a chart of one recorded day, say whether it is the first recorded day (``all_rows``, the
    same read over all the history, is asked only then) or just the only one in the period."""
    day = frames.single_day(rows)
    if day is not None:
        everything = all_rows()
        first = everything.empty or pd.to_datetime(everything["day"]).dt.date.min() == day
        st.caption(frames.one_day_words(day, first=first))


def linked(name: Kind, key: str) -> str | None:
    """A domain or keyword the URL asks for (a link from another page, or a typed ``?domain=``), each
    new one chosen once."""
    value = st.query_params.get(subject_param(name)) or st.query_params.get(name)
    if value and st.session_state.get(f"_history_linked_{key}") != value:
        st.session_state[f"_history_linked_{key}"] = value
        return value
    return None


def domain_choices(source: HistorySource, own: dict[str, str]) -> tuple[list[str], set[str]]:
    """The domains a tab offers (your sites, then the watched ones) and which of them are yours."""
    watched = [s for kind, s, *_ in source.watch_items() if kind == "domain"]
    choices = list(dict.fromkeys([*own, *watched]))
    return choices, set(own) | {s for kind, s, origin, _site in source.watch_items() if origin == "own"}
