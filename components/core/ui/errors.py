"""The error panel: one callout per client error, worded by ``analysis.error_wording``.

Server messages are shown escaped and secondary, never as the whole explanation. ``read_or_show_error``
is the usual way a page reads: the answer, or the panel and nothing to draw. ``show_notice`` is the same
callout for an answer that was used but not whole (rows of it that could not be used).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from analysis.error_wording import describe_error
from analysis.text import escape_md
from client import errors

T = TypeVar("T")


#: The levels of a callout (Streamlit's box of each name), with each one's usual icon.
CALLOUT_ICONS: dict[str, str] = {
    "success": ":material/check_circle:",
    "info": ":material/info:",
    "warning": ":material/warning:",
    "error": ":material/error:",
}


def callout(level: str, body: str, icon: str | None = None) -> None:
    """``body`` (Markdown) in a box of ``level``, with that level's icon unless ``icon`` says another."""
    getattr(st, level)(body, icon=icon or CALLOUT_ICONS[level])


def show_error(err: errors.ApiError, *, subject: str = "this request") -> None:
    """Render ``err`` as one callout (plus an upgrade link for a 402)."""
    view = describe_error(err, subject=subject)
    body = f"**{escape_md(view.title)}**  \n{escape_md(view.advice)}"
    if view.detail and view.detail != view.advice:
        body += f"  \n*Service said:* {escape_md(view.detail)}"
    callout(view.level, body)
    if view.link_url and view.link_label:
        st.link_button(view.link_label, view.link_url, icon=":material/open_in_new:")


def show_notice(text: str, *, level: str = "warning") -> None:
    """One callout saying what an answer left out, in the app's words; ``text`` (which may quote the
    service's text) is shown escaped, never as Markdown."""
    callout(level, escape_md(text))


def read_or_show_error(
    read: Callable[..., T],
    *args: Any,
    subject: str,
    not_found: Callable[[errors.NotFoundError], None] | None = None,
) -> T | None:
    """``read(*args)``, or None once its error is shown in the panel about ``subject`` (a 404 by
    ``not_found`` instead, when the page says it in its own words).

    For the reads whose every refusal the panel explains well enough: the caller only has to stop
    drawing (``return`` or ``st.stop()``) when it gets None. A read that answers None is not one.
    """
    try:
        return read(*args)
    except errors.NotFoundError as exc:
        if not_found is None:
            show_error(exc, subject=subject)
        else:
            not_found(exc)
        return None
    except errors.ApiError as exc:
        show_error(exc, subject=subject)
        return None
