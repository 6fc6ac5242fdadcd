"""Site-check shaping: the verdict's look, the signals as rows, and which signals are missing.

Pure functions (no Streamlit, no network). A provider signal the service could not get is shown
as missing, never as 0 or "no": it weakens the evidence, it is not evidence of anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.shaping import typed_frame
from analysis.wording import NOT_AVAILABLE, short_number, whole_number, yes_no
from client.models import SiteCheck


@dataclass(frozen=True)
class VerdictStyle:
    """How a verdict is shown: badge words, colour and icon, and one sentence of meaning."""

    label: str
    colour: str
    icon: str
    meaning: str


VERDICT_STYLES: dict[str, VerdictStyle] = {
    "real": VerdictStyle(
        "Real site", "green", ":material/verified:", "The checks found a working site with real content."
    ),
    "suspicious": VerdictStyle(
        "Suspicious",
        "orange",
        ":material/gpp_maybe:",
        "Several red flags together: treat links from or to this site with care.",
    ),
    "shell": VerdictStyle(
        "Shell site",
        "violet",
        ":material/web_asset_off:",
        "The homepage shows no meaningful content without JavaScript.",
    ),
    "unreachable": VerdictStyle(
        "Unreachable",
        "red",
        ":material/cloud_off:",
        "The homepage did not answer when the site was checked.",
    ),
}


def verdict_style(verdict: str | None) -> VerdictStyle:
    """The known verdicts' style; any other value is shown as it came, in grey."""
    if verdict in VERDICT_STYLES:
        return VERDICT_STYLES[verdict]
    if verdict is None:
        return VerdictStyle("No verdict", "gray", ":material/help:", "The report carries no verdict.")
    return VerdictStyle(verdict, "gray", ":material/help:", "A verdict this app does not know yet.")


@dataclass(frozen=True)
class Signal:
    """One row of the report: its name, the raw value (None when missing) and how it reads."""

    name: str
    value: object
    shown: str
    group: str


def _pct(value: float | None) -> str:
    return NOT_AVAILABLE if value is None else f"{value * 100:.1f}%"


def _years(value: float | None) -> str:
    return NOT_AVAILABLE if value is None else f"{short_number(value)} years"


def signals(check: SiteCheck) -> list[Signal]:
    """Every signal of the report, in reading order (site, shell check, footprint)."""
    shell = check.shell
    is_shell = shell.is_shell if shell else None
    chars = shell.visible_text_chars if shell else None
    ratio = shell.text_ratio if shell else None
    outbound = shell.outbound_links if shell else None
    return [
        Signal("Reachable", check.reachable, yes_no(check.reachable), "Site"),
        Signal("HTTPS", check.https, yes_no(check.https), "Site"),
        Signal("Homepage title", check.title, check.title or NOT_AVAILABLE, "Site"),
        Signal("Domain age", check.domain_age_years, _years(check.domain_age_years), "Site"),
        Signal("Shell homepage", is_shell, yes_no(is_shell), "Shell check"),
        Signal("Visible text characters", chars, whole_number(chars), "Shell check"),
        Signal("Text ratio", ratio, _pct(ratio), "Shell check"),
        Signal("Outbound links", outbound, whole_number(outbound), "Shell check"),
        Signal("Ranked keywords", check.ranked_keywords, whole_number(check.ranked_keywords), "Footprint"),
        Signal(
            "Referring domains", check.referring_domains, whole_number(check.referring_domains), "Footprint"
        ),
        Signal("Backlinks", check.backlinks, whole_number(check.backlinks), "Footprint"),
        Signal("Spam score (0–100)", check.spam_score, short_number(check.spam_score), "Footprint"),
    ]


def missing_signals(check: SiteCheck) -> list[str]:
    """Names of the signals the providers could not give."""
    return [s.name for s in signals(check) if s.value is None]


def signal_groups(check: SiteCheck) -> dict[str, list[Signal]]:
    """The report's signals by group (site, shell check, footprint), each in reading order."""
    by_group: dict[str, list[Signal]] = {}
    for signal in signals(check):
        by_group.setdefault(signal.group, []).append(signal)
    return by_group


def signals_frame(check: SiteCheck) -> pd.DataFrame:
    """The report as rows (group, signal, value as shown, available) for the table and its CSV."""
    rows = [
        {"group": s.group, "signal": s.name, "value": s.shown, "available": s.value is not None}
        for s in signals(check)
    ]
    return typed_frame(
        rows, {"group": "string", "signal": "string", "value": "string", "available": "boolean"}
    )
