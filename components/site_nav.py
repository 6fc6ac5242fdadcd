"""Choosing one of your sites, and linking to pages that may or may not be part of this app.

Owner pages share the app's one domain input (``key="domain"``, kept in the URL) so a site chosen on
one page stays chosen on the next; your own sites are one click away under it. Links to pages other
issues add are drawn only when the page is registered, so a page never fails on a missing neighbour.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

import streamlit as st
from streamlit.errors import StreamlitAPIException

from client.errors import ApiError, InvalidInputError, NotFoundError
from client.inputs import normalise_domain
from components import data
from components.connection import Connection
from components.errors import show_error

T = TypeVar("T")

DOMAIN_KEY = "domain"


def owned_domains(conn: Connection) -> list[str]:
    """Your sites' domains, or none when the list cannot be read (the page's own call says why)."""
    try:
        return [s.domain or s.slug for s in data.sites(conn).sites]
    except ApiError:
        return []


def _use(domain: str) -> None:
    st.session_state[DOMAIN_KEY] = domain


def site_input(conn: Connection, *, help_text: str, optional: bool = False) -> str | None:
    """The shared Domain input with your sites as one-click choices; returns what was typed, stripped."""
    mine = owned_domains(conn)
    text = st.text_input(
        "Domain",
        key=DOMAIN_KEY,
        bind="query-params",
        placeholder=(mine[0] if mine else "example.com") + (" (or leave empty for all)" if optional else ""),
        help=help_text,
    )
    if mine:
        with st.container(horizontal=True, vertical_alignment="center"):
            st.caption("Your sites:", width="content")
            for domain in mine:
                st.button(domain, key=f"pick_{domain}", on_click=_use, args=(domain,), type="tertiary")
    value = (text or "").strip()
    return value or None


def read_owned_site(
    conn: Connection, raw: str, read: Callable[[Connection, str], T], *, not_owned: str
) -> tuple[str, T]:
    """Normalise one of your sites and read it; on any error say why and stop the page there.

    ``not_owned`` is the page's own sentence for a 404 (the site is not one of yours).
    """
    try:
        domain = normalise_domain(raw)
        return domain, read(conn, domain)
    except InvalidInputError as exc:
        show_error(exc)
    except NotFoundError as exc:
        show_error(exc, subject=raw.strip())
        st.caption(not_owned)
    except ApiError as exc:
        show_error(exc, subject=raw.strip())
    st.stop()


def link_if_present(
    page: str,
    *,
    label: str,
    icon: str,
    query_params: Mapping[str, str] | None = None,
    help: str | None = None,
) -> bool:
    """``st.page_link`` when ``page`` is part of the app's navigation; False (nothing drawn) otherwise."""
    try:
        st.page_link(page, label=label, icon=icon, query_params=dict(query_params or {}), help=help)
    except StreamlitAPIException:
        return False
    return True
