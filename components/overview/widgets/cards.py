"""Metric cards for a lookup: the numbers a marketer reads first, each with its weekly change; the
heading every page gives one site; and, under the comparison table, what that narrow table leaves out."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from analysis.overview.frames import true_dr_gap
from analysis.text import escape_md
from analysis.wording import NOT_AVAILABLE, is_missing, whole_number
from client.models import Lookup


def site_heading(domain: str, title: str | None) -> None:
    """A site's heading: its domain, then its title when the service gave one."""
    suffix = f" — {escape_md(title)}" if title else ""
    st.subheader(f"{escape_md(domain)}{suffix}", anchor=False)


def _value(value: float | None) -> str | float:
    return NOT_AVAILABLE if value is None else value


def signed(value: float | None, digits: int = 0) -> str | int | None:
    """A delta as signed text with separators (``+1,334``); 0 stays a neutral number; None draws no arrow."""
    if is_missing(value):
        return None
    if value == 0:
        return 0
    return f"{value:+,.{digits}f}"


def _flag(label: str, value: bool | None) -> None:
    if value is None:
        st.badge(f"{label}: {NOT_AVAILABLE}", icon=":material/help:", color="gray")
    elif value:
        st.badge(label, icon=":material/check_circle:", color="green")
    else:
        st.badge(f"Not {label.lower()}", icon=":material/cancel:", color="orange")


def authority_cards(lookup: Lookup) -> None:
    """DR, TrueDR, trust and confidence as cards; traffic validation and verification as badges."""
    a, c = lookup.authority, lookup.changes
    gap = true_dr_gap(lookup)
    cols = st.columns(4)
    cols[0].metric(
        "DR",
        _value(a.dr),
        signed(c.dr_weekly_change, 1),
        help="Domain Rating (0–100). The arrow is the change over the last week.",
        delta_description="this week",
        border=True,
    )
    cols[1].metric(
        "TrueDR",
        _value(a.true_dr),
        signed(c.true_dr_weekly_change, 1),
        help="DR corrected by traffic and link-quality evidence. The arrow is the weekly change."
        + ("" if gap is None else f" TrueDR − DR = {gap:+d}."),
        delta_description="this week",
        border=True,
    )
    cols[2].metric(
        "Trust score",
        NOT_AVAILABLE if a.trust_score is None else f"{a.trust_score}/100",
        help="Backlink trust (0–100); under 60 is weak.",
        border=True,
    )
    score = "" if a.confidence_score is None else f" Confidence score: {a.confidence_score:.0%}."
    cols[3].metric(
        "Confidence",
        escape_md(a.confidence) if a.confidence else NOT_AVAILABLE,
        help="How sure the service is of TrueDR (high, medium or low)." + score,
        border=True,
    )
    with st.container(horizontal=True):
        _flag("Traffic validated", a.traffic_validated)
        _flag("Verified", lookup.verified)
        if gap is not None:
            st.badge(f"TrueDR − DR: {gap:+d}", color="red" if gap <= -10 else "blue")


def evidence_cards(lookup: Lookup) -> None:
    """The public evidence behind the ratings; missing provider signals say so."""
    e, c = lookup.evidence, lookup.changes
    gained, lost = e.gained_domains, e.lost_domains
    net = None if gained is None or lost is None else gained - lost
    cols = st.columns(4)
    cols[0].metric(
        "Traffic",
        whole_number(e.traffic),
        signed(c.traffic_change),
        help="Estimated monthly visits; the arrow is the weekly change in visits.",
        border=True,
    )
    cols[1].metric(
        "Referring domains",
        whole_number(e.referring_domains),
        signed(net),
        help=f"Distinct sites linking here. Gained {whole_number(gained)}, lost {whole_number(lost)}.",
        border=True,
    )
    cols[2].metric("Backlinks", whole_number(e.backlinks), border=True)
    cols[3].metric(
        "Global rank",
        NOT_AVAILABLE if e.global_rank is None else f"#{whole_number(e.global_rank)}",
        border=True,
    )
    report = e.report_created_at.date().isoformat() if e.report_created_at else NOT_AVAILABLE
    st.caption(
        f"Evidence report from {report}. Missing signals weaken the evidence; they are never shown as 0."
    )


def _flag_words(value: bool | None, yes: str, no: str, unknown: str) -> str:
    return unknown if value is None else (yes if value else no)


def _change(label: str, value: float | None, digits: int, unit: str = "") -> str:
    if is_missing(value):
        return f"{label} {NOT_AVAILABLE}"
    return f"{label} {signed(value, digits)}{unit}" if value else f"{label} unchanged"


def site_in_brief(lookup: Lookup) -> str:
    """One Markdown line with what the comparison table leaves out of a site: its title, confidence,
    traffic check, verification, backlinks and weekly changes (missing ones said so, never 0)."""
    a, c, e = lookup.authority, lookup.changes, lookup.evidence
    title = f" — {escape_md(lookup.title)}" if lookup.title else ""
    facts = [
        f"confidence {a.confidence or NOT_AVAILABLE}",
        _flag_words(
            a.traffic_validated, "traffic validated", "traffic not validated", "traffic check unknown"
        ),
        _flag_words(lookup.verified, "verified", "not verified", "verification unknown"),
        f"{whole_number(e.backlinks)} backlinks",
    ]
    week = [
        _change("DR", c.dr_weekly_change, 1),
        _change("TrueDR", c.true_dr_weekly_change, 1),
        _change("traffic", c.traffic_change, 0, " visits"),
    ]
    return (
        f"- **{escape_md(lookup.domain)}**{title}  \n"
        f"  {escape_md(' · '.join(facts))} · this week: {escape_md(', '.join(week))}"
    )


def compare_details(lookups: Sequence[Lookup]) -> None:
    """Each compared site in full, under the table: the columns left out so the table fits the page."""
    if not lookups:
        return
    with st.expander("Each site in full: title, confidence, verification, backlinks, weekly changes"):
        st.markdown("\n".join(site_in_brief(lookup) for lookup in lookups))
