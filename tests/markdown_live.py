"""What Streamlit's Markdown renderer would make live in a string: shared by the tests that check service
text stays inert (the helper's unit test and the pages' hostile run).

The model, checked against Streamlit 1.67 in Chromium: the Markdown is parsed as CommonMark with tables and
strikethrough (markdown-it), so links, images, HTML, emphasis, code, headings and the like are tokens;
escaped punctuation (``\\*``) stays a separate "escape" token. Streamlit then rewrites the *text* of the
parsed document, where escapes no longer count: bare URLs (``https://…``, ``www.…``) and e-mail addresses
become links, ``:material/name:`` becomes an icon, ``:smile:`` an emoji. Colour and other directives
(``:red[…]``) and ``$math$`` are parsed from the source, so an escaped ``:``, ``[`` or ``$`` keeps them
inert, while a raw one is live.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

#: Joins of escapes and text are kept apart, so a raw ``$`` can be told from an escaped one.
_PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("text_join")
#: Rewrites Streamlit applies to the document's text, whatever was escaped in the source.
TEXT_REWRITES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("bare link", re.compile(r"(?i)(?:\b[a-z][a-z0-9+.-]*://|\bwww\.|\b(?:mailto|xmpp):(?=[\w.+-]))\S+")),
    ("bare e-mail", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("icon", re.compile(r":material/[a-z0-9_]+:")),
    ("emoji", re.compile(r":[a-z0-9_+-]+:")),
)
#: Constructs parsed from raw (unescaped) source text that markdown-it does not know.
RAW_SYNTAX: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("directive", re.compile(r":[a-z-]+\[[^\]]*")),
    ("math", re.compile(r"\$[^$]*")),
)
#: Tokens that are plain text, or only structure around it.
_PLAIN = {"paragraph_open", "paragraph_close", "inline", "text", "text_special", "softbreak"}
_FORMATTING = {"strong_open": "bold", "em_open": "italic", "s_open": "strikethrough"}


@dataclass(frozen=True)
class Live:
    """One thing the renderer would draw as more than text: its kind and what it holds (href, text)."""

    kind: str
    holds: str


def _inline_live(children: list[Token]) -> list[Live]:
    found: list[Live] = []
    for i, token in enumerate(children):
        if token.type == "link_open":
            found.append(Live("link", str(token.attrs.get("href", ""))))
        elif token.type == "image":
            found.append(Live("image", str(token.attrs.get("src", ""))))
        elif token.type in ("html_inline", "code_inline"):
            found.append(Live(token.type.replace("_inline", ""), token.content))
        elif token.type in _FORMATTING:
            close = token.type.replace("_open", "_close")
            inner = []
            for later in children[i + 1 :]:
                if later.type == close:
                    break
                inner.append(later.content)
            found.append(Live(_FORMATTING[token.type], "".join(inner)))
        elif token.type == "text":
            found += [Live(kind, m.group(0)) for kind, rx in RAW_SYNTAX for m in rx.finditer(token.content)]
        elif token.type not in _PLAIN and not token.type.endswith("_close"):
            found.append(Live(token.type, token.content))
    shown = "".join(" " if t.type == "softbreak" else t.content for t in children if t.type in _PLAIN)
    found += [Live(kind, m.group(0)) for kind, rx in TEXT_REWRITES for m in rx.finditer(shown)]
    return found


def live_parts(markdown: str) -> list[Live]:
    """Everything in ``markdown`` that Streamlit would draw as a link, image, HTML, icon, emoji,
    formatting or structure rather than as the plain characters."""
    found: list[Live] = []
    for token in _PARSER.parse(markdown):
        if token.type == "inline":
            found += _inline_live(token.children or [])
        elif token.type not in _PLAIN and not token.type.endswith("_close"):
            found.append(Live(token.type.replace("_open", ""), token.content))
    return found


def shown_text(markdown: str) -> str:
    """The characters a person reads when ``markdown`` is drawn as plain text (escapes resolved)."""
    parts = []
    for token in _PARSER.parse(markdown):
        if token.type == "inline":
            parts.append("".join(" " if t.type == "softbreak" else t.content for t in token.children or []))
    return " ".join(parts)
