"""Hostile service text on every page is drawn as text: no link, image, icon, colour or formatting the app
did not build, in the main area or the sidebar.

Every read of the page answers the sandbox's "hostile" fault (every string wrapped in HTML, Markdown and
Streamlit's own syntax; the plan name in ``X-API-Tier`` full of Markdown), and the history store holds a
Trust Map whose referring domains read as links (``www.`` names), so the Alerts, History and Activity
pages show it too.
Then every string of every element that Streamlit draws as Markdown (bodies, labels, tooltips, captions,
radio options) is parsed (``tests.markdown_live``): none may hold a live part that came from that text.
Charts too: plotly draws a subset of HTML in their text, so no string of a chart's data may hold a tag.
The pages are the fault matrix's catalogue, so a new page is checked as soon as it is catalogued.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from google.protobuf.message import Message
from streamlit.testing.v1 import AppTest

from client.models import TrustMap
from client.settings import key_fingerprint
from sandbox import DEMO_KEY, SandboxServer
from sandbox.faults import ANY_OPERATION, HOSTILE_HOST
from services.alerts.evaluate import evaluate_alerts
from store import HistoryStore
from tests.apptest.test_fault_matrix import CATALOGUE, MINE, PageCase, _app, _drive
from tests.markdown_live import Live, live_parts
from tests.store.samples import dofollow_map

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = datetime.now(UTC).date()
#: Proto fields Streamlit draws as Markdown (for the elements below that draw any).
MARKDOWN_FIELDS = frozenset({"body", "label", "help", "caption", "captions", "options", "content", "tooltip"})
#: Elements that show their strings as they are (or not as text at all): no Markdown to check. (A text
#: box's label and tooltip are Markdown, its value is not: only Markdown fields are read anyway.)
AS_IS = frozenset(
    ("code", "text", "json", "arrow_data_frame", "dataframe", "plotly_chart", "html", "exception")
)
#: Where options are plain text (a selectbox's list is not Markdown); a radio's and a pill's are.
OPTIONS_AS_IS = frozenset({"selectbox", "multiselect", "select_slider"})
#: Words that only the hostile text holds: a live part holding one came from the service.
MARKERS = (HOSTILE_HOST, "javascript:", "pwned", "skull", "hostile-")
FORMATTING = frozenset({"bold", "italic", "strikethrough"})


def _from_service(part: Live) -> bool:
    """Whether a live part was made by the hostile text (rather than by the app around it): the app puts
    service text inside its own bold, but only the text's own ``**…**`` makes bold of a marker word."""
    if part.kind in FORMATTING:
        return part.holds.startswith("hostile-")
    return any(marker in part.holds for marker in MARKERS)


def _drawn_as_markdown(field: str, kind: str) -> bool:
    return field in MARKDOWN_FIELDS and not (field == "options" and kind in OPTIONS_AS_IS)


def _strings(message: Message, kind: str) -> Iterator[tuple[str, str]]:
    """(field, text) for every Markdown-drawn string in ``message`` and the messages it holds."""
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if isinstance(item, Message):
                yield from _strings(item, kind)
            elif isinstance(item, str) and _drawn_as_markdown(field.name, kind):
                yield field.name, item


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _nodes(child)


def markdown_strings(at: AppTest) -> list[tuple[str, str, str]]:
    """(element type, field, text) for every string Streamlit draws as Markdown, sidebar included."""
    found = []
    for root in (at.main, at.sidebar):
        for node in _nodes(root):
            kind = str(getattr(node, "type", ""))
            proto = getattr(node, "proto", None)
            if kind in AS_IS or not isinstance(proto, Message):
                continue
            found += [(kind, field, text) for field, text in _strings(proto, kind)]
    return found


#: Trace properties a chart shows as text (axis categories, labels, hover and legend text).
CHART_TEXT = ("x", "y", "text", "hovertext", "customdata", "labels", "parents", "name")
#: Plotly draws a subset of HTML in a chart's text (links and formatting among it): a tag other than the
#: line breaks the app puts in its own labels is live.
CHART_TAG = re.compile(r"<(?!br\s*/?>)[a-z/!]", re.IGNORECASE)


def _chart_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _chart_strings(item)


def raw_html(at: AppTest) -> list[tuple[str, str]]:
    """(element type, HTML) for what the page hands the browser as HTML: ``st.html`` and Markdown that
    allows HTML. The app's own (its scripts, its style rules) must never hold service text."""
    found = []
    for root in (at.main, at.sidebar):
        for node in _nodes(root):
            kind, proto = str(getattr(node, "type", "")), getattr(node, "proto", None)
            if kind == "html" or (kind == "markdown" and getattr(proto, "allow_html", False)):
                found.append((kind, str(getattr(proto, "body", ""))))
    return found


def live_chart_text(at: AppTest) -> list[str]:
    """Every tag in the text of a chart's data (the service's names, labels and hover text)."""
    found = []
    for node in _nodes(at.main):
        if getattr(node, "type", "") == "plotly_chart":
            for trace in json.loads(node.proto.spec).get("data", []):
                for prop in CHART_TEXT:
                    found += [t for t in _chart_strings(trace.get(prop)) if CHART_TAG.search(t)]
    return found


def _trust_map(links: list[tuple[str, str, int, float]]) -> TrustMap:
    return dofollow_map(MINE, links)


def hostile_history(store: HistoryStore) -> None:
    """A week of your site's Trust Map whose referring domains read as links (the store keeps only domain
    names, and a ``www.`` name is one): a strong link lost and a spam-risky one appeared, so the alerts
    carry those names into their titles."""
    strong, spammy = f"www.{HOSTILE_HOST}", f"www.spam.{HOSTILE_HOST}"
    store.watchlist.watch(ACCOUNT, "domain", MINE, origin="own")
    steady = ("steady.com", "live", 30, 5.0)
    store.snapshots.record_trust_map(
        ACCOUNT, _trust_map([(strong, "live", 70, 2.0), steady]), TODAY - timedelta(days=7), "job"
    )
    store.snapshots.record_trust_map(
        ACCOUNT, _trust_map([(strong, "lost", 70, 2.0), (spammy, "live", 12, 85.0), steady]), TODAY, "job"
    )
    found = evaluate_alerts(store, ACCOUNT, days=7)
    assert found.new + found.known >= 2, found  # the lost strong link and the spam-risky domain


@pytest.mark.parametrize("case", CATALOGUE, ids=str)
def test_hostile_service_text_is_inert_on_every_page(
    case: PageCase, live_env: SandboxServer, own_store: HistoryStore
) -> None:
    hostile_history(own_store)
    live_env.state.add_fault(ANY_OPERATION, "hostile", key=DEMO_KEY)

    at = _drive(_app(case), case, type_inputs=True)

    assert not at.exception, [e.value for e in at.exception]
    drawn = markdown_strings(at)
    live = [
        (kind, field, part) for kind, field, text in drawn for part in live_parts(text) if _from_service(part)
    ]
    said = "\n".join(f"{kind}.{field}: {part.kind} {part.holds[:80]!r}" for kind, field, part in live)
    assert not live, f"{case}: service text drawn live:\n{said}"
    html = [kind for kind, text in raw_html(at) if any(marker in text for marker in MARKERS)]
    assert not html, f"{case}: service text in raw HTML ({html})"
    charts = live_chart_text(at)
    assert not charts, f"{case}: service text drawn as markup in a chart: {charts[:3]}"
    # The hostile text did reach the page (the sidebar's plan name at least): the check saw it.
    assert any("Renew here" in text for _, _, text in drawn), f"{case}: no plan name in the sidebar"
