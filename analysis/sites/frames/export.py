"""A site's export as a person reads it (plain labels, yes/no, dates), and as the service sent it (JSON).

Pure functions: no Streamlit. The table and its CSV name every field in words ("X (Twitter) handle",
not ``site.xHandle``); a field the service adds later, which this module does not know yet, is still
shown, under its name turned into words. The JSON download stays exactly what the service sent, for
scripts and imports.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pandas as pd

from analysis.shaping import typed_frame
from analysis.text import field_words
from client.growth_models import SiteExport

#: The export's parts, in words.
SECTION_LABELS: dict[str, str] = {
    "site": "Site record",
    "authority": "Ratings",
    "snippets": "Badge and snippets",
}
#: Every field the service is known to export (its wire name, per part) → what a person calls it.
FIELD_LABELS: dict[str, dict[str, str]] = {
    "site": {
        "slug": "Name in VerifiedDR links",
        "domain": "Domain",
        "url": "Site address",
        "title": "Title",
        "description": "Description",
        "categories": "Categories",
        "xHandle": "X (Twitter) handle",
        "status": "Review status",
        "verified": "Badge verified",
        "dr": "DR",
        "trueDr": "TrueDR",
        "trustScore": "Trust score (0–100)",
        "confidence": "Confidence",
        "traffic": "Monthly visits (estimate)",
        "trafficValidated": "Traffic validated",
        "referringDomains": "Referring domains",
        "backlinks": "Backlinks",
        "drWeeklyChange": "DR change this week",
        "trueDrWeeklyChange": "TrueDR change this week",
        "gscConnected": "Search Console connected",
        "siteCheckVerdict": "Site-check verdict",
        "createdAt": "Submitted",
        "lastVerifiedAt": "Badge last checked",
    },
    "authority": {
        "dr": "DR",
        "trueDr": "TrueDR",
        "trustScore": "Trust score (0–100)",
        "confidence": "Confidence",
        "confidenceScore": "Confidence score (0–1)",
        "trafficValidated": "Traffic validated",
    },
    "snippets": {
        "page": "Public page",
        "badge": "Badge image",
        "html": "HTML badge",
        "htmlDark": "HTML badge (dark)",
        "htmlTrueDr": "HTML badge (TrueDR)",
        "markdown": "Markdown badge",
        "shareText": "Share text",
        "ogImage": "Share image",
        "styles": "Badge styles",
    },
}
#: Words a person reads in a set spelling when an unknown field name is turned into words.
_SET_SPELLINGS = {"dr": "DR", "truedr": "TrueDR", "url": "URL", "html": "HTML", "og": "Open Graph", "x": "X"}


def _words(name: str) -> str:
    """``someNewField`` → "Some new field", ``trueDrMonthlyChange`` → "TrueDR monthly change": the
    readable fallback for a field this module has no label for yet."""
    return field_words(name, _SET_SPELLINGS)


def field_label(path: str) -> tuple[str, str]:
    """(part, label) of a flattened field: ``site.xHandle`` → ("Site record", "X (Twitter) handle")."""
    part, _, rest = path.partition(".")
    if not rest:
        return "Other", _words(part)
    section = SECTION_LABELS.get(part) or _words(part)
    known = FIELD_LABELS.get(part, {}).get(rest)
    return section, known or " › ".join(_words(piece) for piece in rest.split("."))


def shown_value(path: str, value: Any) -> str | None:
    """A value as a person reads it: yes/no, a date in UTC, a change with its sign; None stays missing."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    name = path.rsplit(".", 1)[-1]
    if isinstance(value, int | float):
        number = int(value) if float(value).is_integer() else value
        return f"{number:+,}" if name.endswith("Change") and number else f"{number:,}"
    if isinstance(value, str) and name.endswith("At"):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        moment = moment.astimezone(UTC) if moment.tzinfo else moment
        return moment.strftime("%Y-%m-%d %H:%M UTC" if moment.tzinfo else "%Y-%m-%d %H:%M")
    return str(value)


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), item, out)
    elif isinstance(value, list):
        out[prefix] = (
            ", ".join(str(v) for v in value)
            if all(not isinstance(v, dict | list) for v in value)
            else json.dumps(value, ensure_ascii=False)
        )
    else:
        out[prefix] = value


def export_frame(exported: SiteExport) -> pd.DataFrame:
    """The export as (section, field, value) rows in words, for the page's table and its CSV."""
    flat: dict[str, Any] = {}
    _flatten("", exported.to_json_dict(), flat)
    rows = []
    for path, value in flat.items():
        section, label = field_label(path)
        rows.append({"section": section, "field": label, "value": shown_value(path, value)})
    return typed_frame(rows, {"section": "string", "field": "string", "value": "string"})


def export_json(exported: SiteExport) -> bytes:
    """The export exactly as the service sent it (camelCase, extra fields kept), pretty-printed."""
    return json.dumps({"export": exported.to_json_dict()}, indent=2, ensure_ascii=False).encode("utf-8")
