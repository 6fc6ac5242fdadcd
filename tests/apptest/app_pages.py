"""Open a page of the app in Streamlit's AppTest and read what it shows: shared by every AppTest module,
so each reads a metric, a button or the page's prose the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from analysis.text import WORD_JOINER
from components.core.cache import data
from components.reports import built
from components.research import map_view

APP = str(Path(__file__).resolve().parents[2] / "app.py")
#: An [auth] section as Streamlit reads it; AppTest never follows it (the person comes from ``at.user``).
SIGN_IN_SECTION = {
    "redirect_uri": "http://127.0.0.1:8501/oauth2callback",
    "cookie_secret": "not-a-real-cookie-secret",
    "client_id": "dashboard",
    "client_secret": "not-a-real-client-secret",
    "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration",
}


def open_page(
    page: str | None = None, *, email: str | None = None, access: dict[str, Any] | None = None, **query: str
) -> AppTest:
    """A new session on ``page`` (a registry file such as ``views/site.py``; None for the start page)
    with ``query`` in its URL, after its first run; with ``email``, that person is signed in and
    ``access`` are the ``[access]`` lists (``signed_in``)."""
    at = AppTest.from_file(APP, default_timeout=30)
    if email is not None:
        signed_in(at, email, access or {})
    for name, value in query.items():
        at.query_params[name] = value
    if page is not None:
        at.switch_page(page)
    return at.run()


def signed_in(at: AppTest, email: str, access: dict[str, Any], **claims: Any) -> AppTest:
    """``at`` with sign-in on, ``access`` as its ``[access]`` lists and ``email`` signed in, an address
    the provider has verified (``email_verified``, as Google, Auth0 and Keycloak send it) unless
    ``claims`` say otherwise (``email_verified=False``; ``email_verified=None`` sends no such claim)."""
    at.secrets["auth"] = SIGN_IN_SECTION
    at.secrets["access"] = access
    user = {"is_logged_in": True, "email": email, "name": email.split("@")[0].title(), "email_verified": True}
    user.update(claims)
    at.user = {key: value for key, value in user.items() if value is not None}
    return at


def metric(at: AppTest, label: str) -> str:
    """The value of the first metric card labelled ``label`` (failing if the page shows none)."""
    values = [m.value for m in at.metric if m.label == label]
    assert values, f"no {label} metric on the page"
    return values[0]


def as_read(markdown: str) -> str:
    """Markdown as a person reads it: without the escapes and invisible word joiners that ``escape_md``
    puts into service text to keep it inert."""
    return markdown.replace("\\", "").replace(WORD_JOINER, "")


def shown_text(at: AppTest) -> str:
    """Every callout, caption and markdown block on the page, one per line."""
    kinds = (at.error, at.warning, at.info, at.success, at.caption, at.markdown)
    return "\n".join(str(e.value) for kind in kinds for e in kind)


def button(at: AppTest, label: str) -> Any:
    """The first button labelled ``label`` (failing, with the labels there are, if none is)."""
    found = [b for b in at.button if b.label == label]
    assert found, f"no {label!r} button; have {[b.label for b in at.button]}"
    return found[0]


def empty_caches() -> None:
    """Start from nothing cached: the data layer's answers, their ledger, the built figures and views, the
    reports' printed PDFs."""
    data.clear_caches()
    map_view.clear()
    built.forget_pdfs()
