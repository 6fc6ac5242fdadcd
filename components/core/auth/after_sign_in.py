"""Where a person was going when sign-in stopped them: a deep link opened while signed out (a shared
``/history?history_domain=stripe.com``) is where they land once signed in, not the start page.

Streamlit 1.67 cannot do this by itself: ``st.login`` takes no address to come back to, the provider
returns to ``/oauth2callback``, and that always redirects to the app's start page. The browser session
that showed the sign-in page ends with the trip to the provider, so nothing kept on the server for it
survives either. The browser can carry it:

- the sign-in page writes the page and query it was opened at into a cookie of this site that lasts
  15 minutes (``remember``); at the bare start page it deletes any earlier one, so a deep link opened
  and then left is forgotten;
- the first run after sign-in reads it (``st.context.cookies``). On the bare start page, where sign-in
  returns, it deletes the cookie and replaces the address with the deep link, so the page loads just
  as if the link had been opened signed in, and Back does not lead to a start page never asked for
  (``land``). Anywhere else the cookie is only deleted.

The cookie names a page of this app and its query and nothing else, so it can ask for no more than
typing that address would: it needs no signature, and a cookie naming anything else is ignored. Its
value is percent-encoded, and so is the address put into the page's script.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, unquote, urlencode

import streamlit as st

from components.core.nav import pages
from components.core.nav.browser_history import run_in_browser

COOKIE = "dashboard_after_sign_in"
#: Long enough to sign in at the provider (a second factor included), short enough to never surprise.
MAX_AGE_S = 15 * 60
#: A longer address is not remembered (browsers keep about 4 KB per cookie).
MAX_CHARS = 2000
_LANDED = "_after_sign_in_landed"


@dataclass(frozen=True)
class DeepLink:
    """A page of the app and the query it was opened with."""

    page: pages.AppPage
    query: dict[str, list[str]]

    def address(self) -> str:
        """The link's address on this site, its query percent-encoded."""
        path = _cookie_path().rstrip("/") + "/" + ("" if self.page.default else self.page.url_path)
        return path + (f"?{urlencode(self.query, doseq=True)}" if self.query else "")


def _cookie_path() -> str:
    """The app's own path (``/`` or its base path), for the cookie and for the deep link's address."""
    base = quote(str(st.get_option("server.baseUrlPath") or "").strip("/"), safe="/")
    return f"/{base}" if base else "/"


def _set_cookie(value: str, max_age_s: int, *, then: str = "") -> None:
    """Set (or with ``max_age_s=0`` delete) the cookie, then run ``then``; ``value`` is percent-encoded
    already."""
    attributes = f"; Max-Age={max_age_s}; Path={_cookie_path()}; SameSite=Lax"
    run_in_browser(
        "after-sign-in",
        f'document.cookie = "{COOKIE}={value}{attributes}"'
        f' + (location.protocol === "https:" ? "; Secure" : ""); {then}',
    )


def encode(url_path: str, query: Mapping[str, Sequence[str]]) -> str | None:
    """The cookie's value for a page's url path (``""`` for the start page) and query; None when there
    is nothing to return to (the bare start page) or the address is too long to keep."""
    if not url_path and not query:
        return None
    value = quote(f"{url_path}?{urlencode(query, doseq=True)}", safe="")
    return value if len(value) <= MAX_CHARS else None


def decode(value: object) -> DeepLink | None:
    """The deep link a cookie's value names, or None for anything that is not a page of this app."""
    if not isinstance(value, str) or not value or len(value) > MAX_CHARS:
        return None
    url_path, _, query = unquote(value).partition("?")
    known = {"" if page.default else page.url_path: page for page in pages.ALL}
    if url_path not in known:
        return None
    return DeepLink(known[url_path], parse_qs(query, keep_blank_values=True))


def remember(url_path: str) -> None:
    """On the sign-in page: remember the address it was opened at (or forget one at the start page)."""
    query = {key: st.query_params.get_all(key) for key in st.query_params}
    value = encode(url_path, query)
    _set_cookie(value or "", MAX_AGE_S if value else 0)


def land(current_url_path: str) -> None:
    """In a signed-in person's first run: on the bare start page sign-in returns to, open the
    remembered deep link instead (and stop this run); in any case forget it."""
    if st.session_state.get(_LANDED):
        return
    st.session_state[_LANDED] = True
    value = st.context.cookies.get(COOKIE)
    if not isinstance(value, str):  # no cookie (or no browser: Streamlit's AppTest)
        return
    link = decode(value)
    if link is None or current_url_path or st.query_params:
        _set_cookie("", 0)
        return
    _set_cookie("", 0, then=f"location.replace({json.dumps(link.address())});")
    st.caption(f"Opening {link.page.title}…")
    st.stop()
