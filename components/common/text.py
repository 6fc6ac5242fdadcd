"""Formatting numbers and untrusted text for people.

Streamlit renders Markdown in most elements, so any text that came from the API (titles, anchors,
error messages) is escaped before it is shown: a hostile site title must not become a link.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

NOT_AVAILABLE = "not available"

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:])")


def escape_md(text: object) -> str:
    """Text safe to embed in Markdown: every character Markdown could interpret is escaped."""
    return _MD_SPECIAL.sub(r"\\\1", str(text)) if text is not None else ""


def is_missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def fmt_int(value: float | None) -> str:
    """Thousands-separated whole number, or 'not available' for a missing provider signal."""
    if value is None or math.isnan(value):
        return NOT_AVAILABLE
    return f"{round(value):,}"


def fmt_number(value: float | None, digits: int = 1) -> str:
    if is_missing(value):
        return NOT_AVAILABLE
    text = f"{value:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def fmt_bool(value: bool | None, yes: str = "yes", no: str = "no") -> str:
    if value is None:
        return NOT_AVAILABLE
    return yes if value else no


def delta_or_none(value: float | None) -> float | int | None:
    """A metric delta: None (no arrow) when missing, so an unknown change never shows as 0."""
    return None if is_missing(value) else value


def safe_http_url(url: object) -> str | None:
    """The URL when it is an absolute http(s) link, else None: API links become clickable only then."""
    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme in ("http", "https") and parts.netloc and not any(c.isspace() for c in url.strip()):
        return url.strip()
    return None


def field_words(name: str, spellings: Mapping[str, str]) -> str:
    """A field name as words a person reads: ``spam_score`` → "Spam score", ``trueDrMonthlyChange`` →
    "TrueDR monthly change"; ``spellings`` sets the words that are not plain lower case (DR, URL, …)."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower().replace("true_dr", "truedr")
    words = [spellings.get(word, word) for word in re.split(r"[_\s.\-]+", snake) if word]
    if not words:
        return name
    return " ".join([words[0][:1].upper() + words[0][1:], *words[1:]])


#: The colours ``st.badge`` takes that the app uses (a verdict or a status, never the service's words).
BadgeColour = Literal["green", "orange", "red", "gray"]
