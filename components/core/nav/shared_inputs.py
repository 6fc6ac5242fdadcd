"""Inputs shared by every page: the Domain field, and the domain typed on one page is still there on
the next; ``domain_or_demo`` is the whole body of a page that reads one typed domain.

A sidebar link opens a page without the URL's query parameters, and Streamlit forgets the state of
a widget that was not drawn in the last run, so without this a marketer would retype the domain on
every page. The last value is kept in the session (never in another user's) and put back into the
page's field when the URL does not say otherwise; the Domain field also puts it into the page's
address, so the address says what the page shows: it can be shared, and browser Back returns to it
as it was. (A page with its own picker under the same name, such as Tracked keywords' site list,
reads a name in the address as a request, so only the shared field writes it.)

Back and Forward are the exception: there the address *is* the page as it was, so it wins over the
remembered value. Streamlit 1.67 drops a URL-bound name from the address when the page being left binds
the same name (meant for a link, which must not carry the old page's fields along), and on Back that
emptied the Domain field of a page that had one; ``restore_shared_inputs`` puts it back and reads the
page again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from urllib.parse import parse_qs

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from components.core.cache.connection import Connection
from components.core.ui.demo_picker import DEMO_DOMAIN_LABEL, demo_picker
from sandbox.accounts import ACCOUNTS

DOMAIN_KEY = "domain"
#: Widget keys that mean the same thing on every page that draws them.
SHARED_KEYS = (DOMAIN_KEY,)
_MEMO = "_shared_input:"
_PAGE = "_shared_input_page"
_DEMO_OFFERED = "_shared_input_demo_offered"


def _address_on_back_or_forward() -> dict[str, list[str]] | None:
    """The query of the browser's address when this run is browser Back or Forward, else None.

    Read from Streamlit's run context (no public API says either): the query as the browser sent it,
    before Streamlit dropped the names the page being left binds.
    """
    ctx = get_script_run_ctx()
    if ctx is None or not getattr(ctx, "is_history_navigation", False):
        return None
    return parse_qs(getattr(ctx, "query_string", "") or "", keep_blank_values=True)


def _into_address(key: str, value: str) -> None:
    """Write ``value`` into the address (a name a field of this page already binds is left to it)."""
    with contextlib.suppress(StreamlitAPIException):
        st.query_params[key] = value


def _put_back_what_streamlit_dropped(address: dict[str, list[str]]) -> None:
    """On Back or Forward: the shared fields the address has but Streamlit dropped go back into it,
    and the page runs again (this run's fields already started empty; the next run is no page switch,
    so Streamlit keeps them)."""
    dropped = [key for key in SHARED_KEYS if address.get(key) and key not in st.query_params]
    for key in dropped:
        _into_address(key, address[key][-1])
    if dropped:
        st.rerun()


def restore_shared_inputs(page: str) -> None:
    """Before ``page`` runs: if the user just came from another page, refill the shared fields the
    switch emptied (the URL wins). Reruns of the same page never touch them: the field holds what
    the user just chose. On Back or Forward the address alone says what the page shows."""
    if st.session_state.get(_PAGE) in (None, page):
        return
    address = _address_on_back_or_forward()
    if address is not None:
        _put_back_what_streamlit_dropped(address)
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
    """The shared Domain field (kept in the URL): what was typed, as typed, or None when it is empty.

    A domain carried over from another page goes into this page's address before the field is drawn
    (Streamlit writes a bound field's value to the address only once the field has been drawn before).
    """
    carried = st.session_state.get(DOMAIN_KEY)
    if carried and DOMAIN_KEY not in st.query_params:
        _into_address(DOMAIN_KEY, carried)
    text = st.text_input(label, key=DOMAIN_KEY, bind="query-params", placeholder=placeholder, help=help_text)
    return text if text and text.strip() else None


def demo_own_site(conn: Connection) -> str | None:
    """The first site the sandbox's demo account of ``conn`` owns; None in Live mode."""
    if conn.mode != "sandbox" or conn.api_key is None:
        return None
    account = ACCOUNTS.get(conn.api_key.get_secret_value())
    return account.sites[0] if account and account.sites else None


def _offer_demo_site(conn: Connection) -> None:
    """Once per session, on the sandbox: while no domain has been chosen yet (none in the field, none
    remembered from another page, none in the address), the field starts on the demo's own site, so the
    first page shows demo data. A field the person emptied stays empty."""
    if st.session_state.get(_DEMO_OFFERED):
        return
    st.session_state[_DEMO_OFFERED] = True
    chosen = st.session_state.get(DOMAIN_KEY) or st.session_state.get(_MEMO + DOMAIN_KEY)
    site = demo_own_site(conn)
    if site and not chosen and DOMAIN_KEY not in st.query_params:
        st.session_state[DOMAIN_KEY] = site


def domain_or_demo(
    conn: Connection,
    *,
    help_text: str,
    show: Callable[[Connection, str], None],
    demos: Sequence[str],
    demo_key: str,
    demo_label: str = DEMO_DOMAIN_LABEL,
    start_on_demo_site: bool = False,
) -> None:
    """The body of a page that reads one domain: the Domain field, then ``show(conn, text)`` for what
    was typed, or (while the field is empty) the sandbox's demo buttons under ``demo_key``. With
    ``start_on_demo_site`` (the start page), a session on the sandbox that has chosen no domain yet
    starts on the demo account's own site."""
    if start_on_demo_site:
        _offer_demo_site(conn)
    text = domain_input(help_text=help_text)
    if text:
        show(conn, text)
    else:
        demo_picker(conn, demos, key_prefix=demo_key, label=demo_label)
