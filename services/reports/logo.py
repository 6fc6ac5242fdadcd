"""A report's logo, judged by its bytes, never by its file name.

A PNG or a JPEG is known by its first bytes (the formats' magic numbers). An SVG is a document a
renderer acts on, so it is taken only when it parses as XML with an ``<svg>`` root and holds nothing
that runs or reaches out: no script, no event handler, no embedded HTML (``foreignObject``), no link
or ``url(…)`` to anything outside the drawing, no DOCTYPE or entity declarations and no style sheet
instruction. Anything else is refused in words that say why; the report is then built without it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

#: The largest logo a report embeds (it travels in every report's HTML and PDF).
MAX_LOGO_BYTES = 1024 * 1024
MAX_LOGO_WORDS = "1 MiB"

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_MAGIC = b"\xff\xd8\xff"

#: Elements an SVG logo may not hold: they run code, embed other documents or play media.
_FORBIDDEN_ELEMENTS = frozenset(
    {"script", "foreignobject", "iframe", "embed", "object", "audio", "video", "handler", "listener"}
)
#: Attributes that name another resource: only a reference inside the drawing (``#id``) is kept.
_REFERENCE_ATTRIBUTES = frozenset({"href", "src", "xlink:href"})
_URL_CALL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)
#: A processing instruction other than the XML declaration (``<?xml-stylesheet …?>`` fetches a sheet).
_INSTRUCTION = re.compile(rb"<\?(?!xml[\s?])", re.IGNORECASE)


class LogoRefused(ValueError):
    """The logo file is not one a report may embed; the message says why, in plain words."""


def _local_name(name: str) -> str:
    """An element or attribute name without its namespace: ``{http://…/svg}rect`` → ``rect``."""
    return name.rsplit("}", 1)[-1].lower()


def _reaches_out(text: str) -> bool:
    """Whether CSS or an attribute value points at something outside the drawing (``url(…)`` not ``#``)."""
    if "@import" in text.lower():
        return True
    return any(not target.startswith("#") for target in _URL_CALL.findall(text))


def _svg_problem(data: bytes) -> str | None:
    """Why this SVG may not be embedded (None: it may)."""
    head = data.lower()
    if b"<!doctype" in head or b"<!entity" in head:
        return "an SVG logo may not declare a DOCTYPE or entities"
    if _INSTRUCTION.search(data):
        return "an SVG logo may not hold processing instructions (such as a style sheet link)"
    try:
        # Safe here: a DOCTYPE or entity declaration was refused above, so nothing can expand or load.
        root = ElementTree.fromstring(data)  # noqa: S314
    except ElementTree.ParseError:
        return "the file is not a PNG, JPEG or SVG image (it does not parse as an SVG document)"
    if _local_name(root.tag) != "svg":
        return "the file is not a PNG, JPEG or SVG image (it is XML, but its outermost element is not <svg>)"
    for element in root.iter():
        name = _local_name(str(element.tag))
        if name in _FORBIDDEN_ELEMENTS:
            return f"an SVG logo may not hold <{name}> elements (they run code or embed other documents)"
        if name == "style" and _reaches_out(element.text or ""):
            return "an SVG logo's styles may not load anything from outside the file"
        for attribute, value in element.attrib.items():
            local = _local_name(attribute)
            if local.startswith("on"):
                return "an SVG logo may not carry event handlers (they run code)"
            if (
                local in _REFERENCE_ATTRIBUTES or attribute.endswith("}href")
            ) and not value.strip().startswith("#"):
                return "an SVG logo may not link to anything outside the file"
            if _reaches_out(value):
                return "an SVG logo may not load anything from outside the file"
    return None


def logo_kind(data: bytes) -> str:
    """The logo's media type (``image/png``, ``image/jpeg`` or ``image/svg+xml``), read from its bytes;
    ``LogoRefused`` saying why for anything else."""
    if not data:
        raise LogoRefused("the file is empty")
    if len(data) > MAX_LOGO_BYTES:
        raise LogoRefused(f"the file is larger than {MAX_LOGO_WORDS}")
    if data.startswith(PNG_MAGIC):
        return "image/png"
    if data.startswith(JPEG_MAGIC):
        return "image/jpeg"
    problem = _svg_problem(data)
    if problem is not None:
        raise LogoRefused(problem)
    return "image/svg+xml"
