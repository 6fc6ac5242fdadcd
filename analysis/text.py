"""Untrusted text made safe for the pages: Markdown escaping, links, field names.

Streamlit renders Markdown in most elements (captions, callouts, labels, tooltips, headings), so any text
that came from the service or a store holding its answers (titles, anchors, plan names, messages) goes
through ``escape_md`` before it reaches one: a hostile site title must not become a link, an image, an
icon or formatting. Only the app builds those. Numbers, counts, days and a missing value in words are
written by ``analysis.wording``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

from analysis.wording import is_missing

#: Every ASCII punctuation character: CommonMark lets each be escaped, so escaping all is always safe.
_MD_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
#: An invisible character that joins the characters around it: no gap, no line break, no change to read.
WORD_JOINER = "\u2060"
#: Where Streamlit finds links, icons and emoji in the text *after* escapes are resolved, so escaping
#: alone does not stop them: after a colon (``https:``, ``:material/…:``, ``:smile:``), before an ``@``
#: (e-mail addresses) and between ``www`` and its dot. A word joiner there breaks each pattern.
#: Control characters left once white space is one space: invisible, and a NUL is not valid Markdown.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_REWRITE_POINTS = re.compile(r"(?<=:)|(?=@)|(?<=www)(?=\.)", re.IGNORECASE)


def escape_md(text: object) -> str:
    """Text from the service made inert for Markdown: it draws as exactly its characters.

    Every punctuation character is escaped (no link, image, HTML, heading, list, table, formatting,
    ``:colour[…]`` or ``$math$``); a word joiner breaks what Streamlit rewrites in plain text (bare URLs
    and ``www.`` addresses, e-mail addresses, ``:material/…:`` icons, emoji codes); runs of white space,
    line breaks included, become one space and control characters go, so no line starts a block (code,
    heading). The one helper for this: use it wherever such text reaches Markdown, or show the text in
    a widget that does not read Markdown (a table cell, ``st.text``, ``st.code``).
    """
    if text is None:
        return ""
    flat = _CONTROL.sub("", re.sub(r"\s+", " ", str(text)))
    joined = _REWRITE_POINTS.sub(WORD_JOINER, flat)
    return _MD_PUNCTUATION.sub(r"\\\1", joined)


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
