"""Your sites: choosing and reading one, and the site-management writes.

Owner pages share the app's one domain input (``key="domain"``, kept in the URL) so a site chosen on
one page stays chosen on the next; your own sites are one click away under it.

Each write is sent once per user action (``components.core.writes.writes``) and names the cached reads it
changes, so the page shows what the service now holds right after a success. Call the writes from
widget callbacks or form submits only, never in the page body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from client.errors import ApiError, InvalidInputError, NotFoundError
from client.growth_inputs import NewSite
from components.common.text import escape_md
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.shared_inputs import DOMAIN_KEY, domain_input
from components.core.ui.errors import show_error
from components.core.writes.writes import WriteOutcome, write_once

T = TypeVar("T")

#: The shared Domain input's help on the pages that show one of your sites.
OWN_SITE_HELP = "One of your sites; shared with the other pages."


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


def typed_site(conn: Connection, *, none_chosen: str, icon: str, help_text: str = OWN_SITE_HELP) -> str:
    """What was typed or picked in the shared Domain input; with nothing there the page says
    ``none_chosen`` and stops."""
    raw = site_input(conn, help_text=help_text)
    if raw is None:
        st.info(none_chosen, icon=icon)
        st.stop()
    return raw


def chosen_site(conn: Connection, *, none_chosen: str, icon: str, help_text: str = OWN_SITE_HELP) -> str:
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
    none_chosen: str,
    icon: str,
    not_found: str,
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


# --- Site-management writes ---------------------------------------------------------------


def submit_site(conn: Connection, site: NewSite) -> WriteOutcome:
    domain = site.domain
    slug = data.slug(domain)
    reads = [
        ("sites",),
        ("site_check", domain),
        ("site", slug),
        ("monitor", None, False),
        ("monitor", None, True),
    ]
    check = " with a site check" if site.site_check else ""
    said = f"Submitted {escape_md(domain)}{check}."
    return write_once(conn, "submit_site", site, invalidates=reads, success=said)


def verify(conn: Connection, url: str) -> WriteOutcome:
    slug = data.slug(data.domain(url))
    return write_once(
        conn, "verify", url, invalidates=[("sites",), ("site", slug)], success="The badge embed was checked."
    )


def _ai_write(
    conn: Connection, operation: str, site: str, *args: Any, success: str, target: str | None = None
) -> WriteOutcome:
    """A write to the site's AI visibility; it changes the site's cached AI-visibility read."""
    slug = data.slug(site)
    reads = [("ai_visibility", slug)]
    return write_once(conn, operation, slug, *args, invalidates=reads, success=success, target=target)


def add_ai_prompt(conn: Connection, site: str, prompt: str, location: str | None = None) -> WriteOutcome:
    return _ai_write(
        conn, "add_ai_prompt", site, prompt, location, success="Question added. It is asked at the next run."
    )


def remove_ai_prompt(
    conn: Connection, site: str, prompt_id: str, question: str | None = None
) -> WriteOutcome:
    """Stop asking a question; ``question`` (its words) is what the audit log names."""
    return _ai_write(conn, "remove_ai_prompt", site, prompt_id, success="Question removed.", target=question)


def reset_ai_prompts(conn: Connection, site: str) -> WriteOutcome:
    return _ai_write(conn, "reset_ai_prompts", site, success="Questions reseeded from the site's keywords.")


def run_ai_visibility(conn: Connection, site: str) -> WriteOutcome:
    return _ai_write(
        conn,
        "run_ai_visibility",
        site,
        success="The questions were asked; the snapshot below is the new run.",
    )


def run_gsc_audit(conn: Connection, site: str) -> WriteOutcome:
    slug = data.slug(site)
    return write_once(
        conn,
        "run_gsc_audit",
        slug,
        invalidates=[("gsc_audit", slug)],
        success="A fresh index audit is ready.",
    )
