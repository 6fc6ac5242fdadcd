"""Metric cards for a lookup: the numbers a marketer reads first, each with its weekly change; and the
heading every page gives one site."""

from __future__ import annotations

import streamlit as st

from client.models import Lookup
from components.common.text import NOT_AVAILABLE, escape_md, fmt_int, is_missing
from components.overview.frames import true_dr_gap


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
        a.confidence or NOT_AVAILABLE,
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
        fmt_int(e.traffic),
        signed(c.traffic_change),
        help="Estimated monthly visits; the arrow is the weekly change in visits.",
        border=True,
    )
    cols[1].metric(
        "Referring domains",
        fmt_int(e.referring_domains),
        signed(net),
        help=f"Distinct sites linking here. Gained {fmt_int(gained)}, lost {fmt_int(lost)}.",
        border=True,
    )
    cols[2].metric("Backlinks", fmt_int(e.backlinks), border=True)
    cols[3].metric(
        "Global rank",
        NOT_AVAILABLE if e.global_rank is None else f"#{fmt_int(e.global_rank)}",
        border=True,
    )
    report = e.report_created_at.date().isoformat() if e.report_created_at else NOT_AVAILABLE
    st.caption(
        f"Evidence report from {report}. Missing signals weaken the evidence; they are never shown as 0."
    )
