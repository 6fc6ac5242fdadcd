"""The Badges & snippets page's parts: a listed site's public links, badge previews and ready-to-paste
embeds, shown as code (never rendered), with where their previews load from.

The API's HTML is shown as code to copy, never rendered here; only an http(s) image URL taken from
it is previewed, as a plain image. The snippets keep the public addresses the service gave; previews
and buttons load them from the service the app is connected to (``loaded_from``), so in Sandbox mode
they show the demo figures, offline too.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from analysis.research.frames.snippets import badge_variants, loaded_from, og_image, snippets_frame
from analysis.text import escape_md
from client.errors import ApiError, InvalidInputError, NotFoundError
from client.models import Snippets
from client.safe_urls import display_url
from client.settings import DEFAULT_API_BASE
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.errors import show_error
from components.core.ui.tables import csv_download

DEMO_DOMAINS = ("example.com", "stripe.com", "acme-widgets.com", "github.com")
#: An address as the page loads or opens it (the snippets themselves keep the service's address).
Opened = Callable[[str | None], str | None]


def _opened_from(conn: Connection) -> Opened:
    return lambda url: loaded_from(url, public_root=DEFAULT_API_BASE, service_root=conn.base_url)


def _where_from(conn: Connection) -> None:
    """Say where the snippets' addresses lead, when the app is not talking to the real service."""
    if conn.mode == "sandbox":
        st.info(
            "**Demo snippets.** These are the sandbox's demo data: the addresses take the real service's "
            f"public form (`{DEFAULT_API_BASE}/…`), as a live key gets them, but the ratings in them are "
            "made up. The previews and buttons here show the sandbox's own copies. Paste snippets from "
            "a live key into your site.",
            icon=":material/science:",
        )
    elif conn.base_url.rstrip("/") != DEFAULT_API_BASE:
        st.caption(
            f"Previews and buttons load from {escape_md(display_url(conn.base_url))}, the service this app "
            "is connected to; the snippets keep the addresses the service gave."
        )


def _links(snippets: Snippets, opened: Opened) -> None:
    page = opened(snippets.page)
    og = opened(og_image(snippets))
    cols = st.columns([1, 1, 3])
    if page:
        cols[0].link_button("Public page", page, icon=":material/open_in_new:")
    if og:
        cols[1].link_button("Share image", og, icon=":material/image:")
    if not (page or og):
        st.caption("The service gave no public links for this site.")


def _badges(snippets: Snippets, opened: Opened) -> None:
    variants = badge_variants(snippets)
    if not variants:
        st.caption("The service gave no badge for this site.")
        return
    st.markdown("**Badges**")
    for tab, variant in zip(st.tabs([v.name for v in variants]), variants, strict=True):
        with tab:
            preview = opened(variant.image_url)
            if preview:
                st.image(preview, caption=f"{variant.name} badge preview")
            else:
                st.caption("No preview: the service gave no http(s) image for this badge.")
            if variant.html:
                st.caption("HTML to paste into your site (shown as code, not run here):")
                st.code(variant.html, language="html", wrap_lines=True)


def _snippets(conn: Connection, domain: str, snippets: Snippets) -> None:
    st.subheader(escape_md(domain), anchor=False)
    _where_from(conn)
    opened = _opened_from(conn)
    _links(snippets, opened)
    _badges(snippets, opened)
    if snippets.markdown:
        st.markdown("**Markdown** (for READMEs and docs)")
        st.code(snippets.markdown, language="markdown", wrap_lines=True)
    if snippets.share_text:
        st.markdown("**Share text**")
        st.code(snippets.share_text, language=None, wrap_lines=True)
    if snippets.styles:
        st.caption(f"Badge styles the service offers: {escape_md(', '.join(snippets.styles))}.")
    csv_download(lambda: snippets_frame(snippets), what="snippets", subject=domain, key="snippets",
                 label="Download all snippets (CSV)")  # fmt: skip


def show_snippets(conn: Connection, raw: str) -> None:
    try:
        domain = data.domain(raw)
        snippets = data.snippets(conn, domain)
    except InvalidInputError as exc:
        show_error(exc)
        return
    except NotFoundError as exc:
        show_error(exc, subject=domain)
        st.caption("Badges and snippets exist only for listed sites.")
        return
    except ApiError as exc:
        show_error(exc, subject=raw.strip())
        return
    _snippets(conn, domain, snippets)
