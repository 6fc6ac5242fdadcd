"""Coach: what is wrong with a site's authority and what to do next, with the evidence behind it.

The advice is built locally (``analysis.coach.rules``) from the site's lookup, its Trust Map and
exchange candidates, with the vdr CLI's coach rules; the tabs are drawn by ``components.coach.widgets``.
Only the open tab runs, so the Trust Map is read only when the backlink audit is opened.
"""

from __future__ import annotations

import streamlit as st

from analysis.text import escape_md
from client.errors import ApiError, InvalidInputError, NotFoundError
from client.models import Lookup
from components.coach import widgets
from components.core.cache import data
from components.core.cache.connection import Connection, current_connection
from components.core.nav.pages import COACH, OVERVIEW, link_to, page_header
from components.core.nav.shared_inputs import domain_input
from components.core.nav.tabs import lazy_tabs
from components.core.ui.demo_picker import demo_picker
from components.core.ui.errors import show_error
from components.overview.widgets import site_heading

DEMO_DOMAINS = ("example.com", "acme-widgets.com", "tinyblog.net", "stripe.com")


def _load_lookup(conn: Connection, raw: str) -> tuple[str, Lookup] | None:
    """The normalised domain and its lookup, or None with the reason shown (an unlisted site gets a
    way to its plain DR instead of an error)."""
    try:
        domain = data.domain(raw)
        return domain, data.lookup(conn, domain)
    except InvalidInputError as exc:
        show_error(exc)
    except NotFoundError:
        name = data.domain(raw)
        st.info(
            f"**{escape_md(name)} is not listed**, so there is no TrueDR, trust or evidence to coach from.",
            icon=":material/info:",
        )
        link_to(OVERVIEW, label="Check its plain DR on the Domain overview", query_params={"domain": name})
    except ApiError as exc:
        show_error(exc, subject=raw.strip())
    return None


def _coach(conn: Connection, domain: str, lookup: Lookup) -> None:
    """The site's name and the ten tabs; only the open tab's renderer runs (and reads the API)."""
    site_heading(lookup.domain, lookup.title)
    renderers = {
        "Analyze": lambda: widgets.analyze_tab(lookup, domain),
        "Diagnose": lambda: widgets.diagnose_tab(lookup, domain),
        "Actions": lambda: widgets.actions_tab(conn, lookup, domain),
        "Audit backlinks": lambda: widgets.audit_tab(conn, lookup, domain),
        "Content plan": lambda: widgets.content_plan_tab(lookup),
        "Fix": lambda: widgets.fix_tab(lookup, domain),
        "Track": lambda: widgets.track_tab(lookup, domain),
        "Explain": lambda: widgets.explain_tab(lookup),
        "Boost": lambda: widgets.boost_tab(lookup, domain),
        "Next": lambda: widgets.next_tab(conn, lookup, domain),
    }
    lazy_tabs({name: renderers[name] for name in widgets.TABS}, key=widgets.TAB_KEY)


conn = current_connection()
page_header(COACH)
domain_text = domain_input(help_text="A domain, subdomain or URL; it is coached as its registrable domain.")
if domain_text:
    loaded = _load_lookup(conn, domain_text)
    if loaded is not None:
        _coach(conn, *loaded)
else:
    st.caption(
        "Type a domain to see what holds its TrueDR back and what to do next. The advice is built "
        "locally with the vdr CLI's coach rules; lookups spend no quota."
    )
    demo_picker(conn, DEMO_DOMAINS, key_prefix="coach_demo")
