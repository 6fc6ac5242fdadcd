"""Badges & snippets shaping: which badge images may be previewed, and the snippets as rows.

Pure functions (no Streamlit, no network). The API's HTML is never rendered by the app: it is
shown as code. To preview the dark and TrueDR badges, only the ``src`` of their ``<img>`` is read
(with the standard library's tolerant parser), and only an http(s) URL is ever handed to an image
element; the HTML itself goes nowhere near the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

import pandas as pd

from analysis.shaping import typed_frame
from analysis.text import safe_http_url
from client.models import Snippets


class _FirstImage(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.src: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.src is None and tag == "img":
            self.src = next((value for name, value in attrs if name == "src" and value), None)


def img_src(html: str | None) -> str | None:
    """The http(s) ``src`` of the first ``<img>`` in a snippet, or None."""
    if not html:
        return None
    parser = _FirstImage()
    parser.feed(html)
    parser.close()
    return safe_http_url(parser.src)


@dataclass(frozen=True)
class BadgeVariant:
    """One badge style: its name, a previewable image URL (or None) and its ready-to-paste HTML."""

    name: str
    image_url: str | None
    html: str | None


def badge_variants(snippets: Snippets) -> list[BadgeVariant]:
    """Light, dark and TrueDR badges, each only when the service gave it."""
    variants = [
        BadgeVariant("Light", safe_http_url(snippets.badge) or img_src(snippets.html), snippets.html),
        BadgeVariant("Dark", img_src(snippets.html_dark), snippets.html_dark),
        BadgeVariant("TrueDR", img_src(snippets.html_true_dr), snippets.html_true_dr),
    ]
    return [v for v in variants if v.image_url or v.html]


def loaded_from(url: str | None, *, public_root: str, service_root: str) -> str | None:
    """Where the page loads a badge preview or opens a public link from: the http(s) ``url`` itself,
    except an address on the public root when the app is connected to another service.

    Snippets carry the real service's public addresses (``https://verifieddr.com/badge/…``), the form
    a person must paste. Connected to another service (the sandbox, a test or staging server), those
    addresses would show the real service's figures, or nothing offline; that service serves the same
    paths with its own figures, so the page loads them from there. The snippets keep the address.
    """
    safe = safe_http_url(url)
    public, service = public_root.rstrip("/"), service_root.rstrip("/")
    if safe is None or service == public or not safe.startswith(f"{public}/"):
        return safe
    return service + safe.removeprefix(public)


def og_image(snippets: Snippets) -> str | None:
    """The Open Graph image link: ``ogImage``, or (the spec names no key) any other ``og…`` field."""
    if url := safe_http_url(snippets.og_image):
        return url
    for name, value in (snippets.model_extra or {}).items():
        if name.lower().startswith("og") and (url := safe_http_url(value)):
            return url
    return None


def snippets_frame(snippets: Snippets) -> pd.DataFrame:
    """Every snippet the service gave as (snippet, value) rows, for one CSV a developer can use."""
    rows = [
        ("Public page", snippets.page),
        ("Badge image", snippets.badge),
        ("HTML", snippets.html),
        ("HTML (dark)", snippets.html_dark),
        ("HTML (TrueDR)", snippets.html_true_dr),
        ("Markdown", snippets.markdown),
        ("Share text", snippets.share_text),
        ("Open Graph image", og_image(snippets)),
    ]
    present = [{"snippet": name, "value": value} for name, value in rows if value]
    return typed_frame(present, {"snippet": "string", "value": "string"})
