"""Your sites: choosing and reading one.

Owner pages share the app's one domain input (``key="domain"``, kept in the URL) so a site chosen on
one page stays chosen on the next; your own sites are one click away under it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from analysis.text import escape_md
from client.errors import ApiError, InvalidInputError, NotFoundError
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.shared_inputs import DOMAIN_KEY, domain_input
from components.core.ui.errors import show_error

T = TypeVar("T")

#: The shared Domain input's help on the pages that show one of your sites.
OWN_SITE_HELP = "One of your sites; shared with the other pages."
#: What a page of one of your sites says while none is chosen, unless it says more.
CHOOSE_A_SITE = "Choose one of your sites."


def owned_domains(conn: Connection) -> list[str]:
    """Your sites' domains, or none when the list cannot be read (the page's own call says why)."""
    try:
        return [s.domain or s.slug for s in data.sites(conn).sites]
    except ApiError:
        return []


def _use(domain: str) -> None:
    st.session_state[DOMAIN_KEY] = domain


def site_input(conn: Connection, *, help_text: str) -> str | None:
    """The shared Domain input with your sites as one-click choices; returns what was typed, stripped."""
    mine = owned_domains(conn)
    text = domain_input(help_text=help_text, placeholder=mine[0] if mine else "example.com")
    if mine:
        with st.container(horizontal=True, vertical_alignment="center"):
            st.caption("Your sites:", width="content")
            for domain in mine:
                st.button(
                    escape_md(domain), key=f"pick_{domain}", on_click=_use, args=(domain,), type="tertiary"
                )
    value = (text or "").strip()
    return value or None


def typed_site(
    conn: Connection, *, icon: str, none_chosen: str = CHOOSE_A_SITE, help_text: str = OWN_SITE_HELP
) -> str:
    """What was typed or picked in the shared Domain input; with nothing there the page says
    ``none_chosen`` and stops."""
    raw = site_input(conn, help_text=help_text)
    if raw is None:
        st.info(none_chosen, icon=icon)
        st.stop()
    return raw


def chosen_site(
    conn: Connection, *, icon: str, none_chosen: str = CHOOSE_A_SITE, help_text: str = OWN_SITE_HELP
) -> str:
    """``typed_site`` normalised by the data layer; refused input is explained and the page stops."""
    raw = typed_site(conn, none_chosen=none_chosen, icon=icon, help_text=help_text)
    try:
        return data.domain(raw)
    except InvalidInputError as exc:
        show_error(exc)
        st.stop()


def read_chosen_site(
    conn: Connection,
    read: Callable[[Connection, str], T],
    *,
    icon: str,
    not_found: str,
    none_chosen: str = CHOOSE_A_SITE,
    help_text: str = OWN_SITE_HELP,
) -> tuple[str, T]:
    """The chosen site (``typed_site``) normalised and read; on any error say why and stop the page.

    ``not_found`` is the page's own sentence for a 404 (e.g. the site is not one of yours).
    """
    raw = typed_site(conn, none_chosen=none_chosen, icon=icon, help_text=help_text)
    try:
        domain = data.domain(raw)
        return domain, read(conn, domain)
    except InvalidInputError as exc:
        show_error(exc)
    except NotFoundError as exc:
        show_error(exc, subject=raw)
        st.caption(not_found)
    except ApiError as exc:
        show_error(exc, subject=raw)
    st.stop()
