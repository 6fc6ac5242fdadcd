"""Service text is inert in Markdown: whatever the service sends, ``escape_md`` gives Markdown that
Streamlit draws as exactly those characters (no link, image, HTML, icon, emoji, colour, math or
formatting) and that reads the same to a person.

``tests.markdown_live`` models what Streamlit's renderer makes live (checked in a real browser by
``tests/browser/test_inert_text_browser.py``)."""

from __future__ import annotations

import html
import re

import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.figures.common import inert_figure
from analysis.text import escape_md
from tests.markdown_live import live_parts, shown_text

#: What a hostile or careless service might put into a plan name, a title or a message.
HOSTILE = (
    "pro [Renew here](https://evil.example)",
    "![x](https://evil.example/p.png)",
    "see https://evil.example/a and HTTP://EVIL.EXAMPLE",
    "see www.evil.example or WWW.evil.example",
    "write to billing@evil.example or mailto:billing@evil.example",
    "<https://evil.example> <b>bold</b> <img src=x onerror=alert(1)>",
    ":red[urgent] :orange-badge[Renew] :material/warning: :smile: :+1:",
    "$x^2$ and $$y$$ cost $5",
    "**bold** _em_ ~~gone~~ `code` <!-- c -->",
    "line\n# heading\n---\n> quote\n    code\n1. item\n| a | b |\n|---|---|",
    "Title\n=====",
    "AT&amp;T &#x1F600; &copy;",
    "[ref]: https://evil.example\n[ref]",
    "trailing backslash \\",
    "javascript:alert(1)",
)


def _reads(text: str) -> str:
    """What a person reads: white space as one space, invisible joiners and control characters dropped."""
    return " ".join(re.sub(r"[\x00-\x1f\x7f\u2060]", "", " ".join(text.split())).split())


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_service_text_is_drawn_as_its_characters(text: str) -> None:
    escaped = escape_md(text)
    assert live_parts(escaped) == []
    assert _reads(shown_text(escaped)) == _reads(text)


#: Text heavy in what Markdown and Streamlit react to, mixed with ordinary words.
_PIECES = st.sampled_from(
    [
        "https://",
        "http://",
        "www.",
        "@",
        ":",
        "material/",
        "[",
        "]",
        "(",
        ")",
        "!",
        "$",
        "*",
        "_",
        "~",
        "`",
        "<",
        ">",
        "&",
        "#",
        "|",
        "\\",
        "\n",
        " ",
        "    ",
        "-",
        "=",
        "+",
        ".",
        "a",
        "evil",
        "example",
        "red",
        "smile",
        "amp;",
        "#58;",
        "1.",
    ]
)
_TEXT = st.one_of(st.lists(_PIECES, max_size=30).map("".join), st.text(max_size=60))


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_no_service_text_renders_as_anything_but_its_characters(text: str) -> None:
    escaped = escape_md(text)
    assert live_parts(escaped) == [], escaped
    assert _reads(shown_text(escaped)) == _reads(text)


def test_nothing_is_nothing() -> None:
    assert escape_md(None) == ""


def test_a_charts_text_from_the_service_is_drawn_as_text_and_the_apps_line_breaks_stay() -> None:
    hostile = '<a href="https://evil.example">x</a> <b>b</b> AT&amp;T'
    fig = go.Figure(go.Bar(x=[hostile, "plain.com"], y=[1, 2], text=["DR<br>unknown", hostile], name=hostile))
    inert_figure(fig)
    bar = fig.data[0]
    assert list(bar.x) == [html.escape(hostile, quote=False), "plain.com"] and list(bar.y) == [1, 2]
    assert list(bar.text) == ["DR<br>unknown", html.escape(hostile, quote=False)]
    assert bar.name == html.escape(hostile, quote=False)
