"""Inputs shared by every page: the Domain field, and the domain typed on one page is still there on
the next; ``domain_or_demo`` is the whole body of a page that reads one typed domain.

A sidebar link opens a page without the URL's query parameters, and Streamlit forgets the state of
a widget that was not drawn in the last run, so without this a marketer would retype the domain on
every page. The last value is kept in the session (never in another user's) and put back into the
page's field when the URL does not say otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from components.core.connection import Connection
from components.core.demo_picker import DEMO_DOMAIN_LABEL, demo_picker

DOMAIN_KEY = "domain"
#: Widget keys that mean the same thing on every page that draws them.
SHARED_KEYS = (DOMAIN_KEY,)
_MEMO = "_shared_input:"
_PAGE = "_shared_input_page"


def restore_shared_inputs(page: str) -> None:
    """Before ``page`` runs: if the user just came from another page, refill the shared fields the
    switch emptied (the URL wins). Reruns of the same page never touch them: the field holds what
    the user just chose."""
    if st.session_state.get(_PAGE) in (None, page):
        return
    for key in SHARED_KEYS:
        remembered = st.session_state.get(_MEMO + key)
        if remembered and key not in st.query_params:
            st.session_state[key] = remembered


def remember_shared_inputs(page: str) -> None:
    """After ``page`` ran: note which page it was and the shared fields' values for the next one."""
    st.session_state[_PAGE] = page
    for key in SHARED_KEYS:
        if key in st.session_state:
            st.session_state[_MEMO + key] = st.session_state[key]


def domain_input(*, help_text: str, label: str = "Domain", placeholder: str = "example.com") -> str | None:
    """The shared Domain field (kept in the URL): what was typed, as typed, or None when it is empty."""
    text = st.text_input(label, key=DOMAIN_KEY, bind="query-params", placeholder=placeholder, help=help_text)
    return text if text and text.strip() else None


def domain_or_demo(
    conn: Connection,
    *,
    help_text: str,
    show: Callable[[Connection, str], None],
    demos: Sequence[str],
    demo_key: str,
    demo_label: str = DEMO_DOMAIN_LABEL,
) -> None:
    """The body of a page that reads one domain: the Domain field, then ``show(conn, text)`` for what
    was typed, or (while the field is empty) the sandbox's demo buttons under ``demo_key``."""
    text = domain_input(help_text=help_text)
    if text:
        show(conn, text)
    else:
        demo_picker(conn, demos, key_prefix=demo_key, label=demo_label)
