"""The Site check page's Streamlit parts: asking before a read that spends a quota unit, the notice
when no report exists, and the report (verdict, evidence note, signal cards and table, links on).

Reading a report spends a quota unit, so it is a write (``components.core.writes.quota_spends``): an editor's
click reads it once and leaves an audit row; a viewer sees the button disabled with the reason. A
report read in the last 15 minutes is shown to anyone for free.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from analysis.research.frames.site_check import (
    missing_signals,
    signal_groups,
    signals,
    signals_frame,
    verdict_style,
)
from analysis.text import escape_md
from client.errors import InvalidInputError, NotFoundError
from client.models import SiteCheck
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.nav.pages import MY_SITES, OVERVIEW, TRUST_MAP, link_to
from components.core.ui.errors import read_or_show_error, show_error
from components.core.ui.tables import table_with_export
from components.core.writes.quota_spends import (
    Units,
    read_priced,
    request_spend,
    run_requested_spend,
    show_spend_outcome,
    spend_requested,
)
from components.overview.widgets import site_heading

#: The write slot of a read: its click waits here for the run that spends.
SLOT = "site_check"
SIGNAL_COLUMNS = {
    "group": st.column_config.TextColumn("Group"),
    "signal": st.column_config.TextColumn("Signal"),
    "value": st.column_config.TextColumn("Value"),
    "available": st.column_config.CheckboxColumn("Available"),
}
HOW_TO_CREATE = (
    "A report is created when the site is submitted with a site check: submit it on My sites with "
    "“Run a site check too” ticked, then come back here."
)


def _read(conn: Connection, subjects: tuple[str, ...], units: Units) -> None:
    """The write path's send: read the report once (it lands in the cache the page reads)."""
    read_priced(conn, "site_check", subjects[0], units)


def _may_read(conn: Connection, domain: str) -> bool:
    """Read only when it is free (cached); otherwise offer the read, which a click spends a unit on."""
    cached = partial(data.is_cached, conn, "site_check", domain)
    show_spend_outcome(SLOT, subject=domain, answered=cached)
    if cached():
        return True
    st.info(
        f"Reading the site-check report of **{escape_md(domain)}** spends **1 quota unit** (also when "
        "no report exists). The answer is then kept for 15 minutes, so looking again is free.",
        icon=":material/toll:",
    )
    _, locked = access.write_permission()
    access.read_only_note(locked)
    st.button(
        "Read the report (spends 1 quota unit)",
        key=f"check_read_{domain}",
        on_click=request_spend,
        args=(SLOT, "site_check", domain),
        type="primary",
        icon=":material/gpp_good:",
        disabled=locked is not None or spend_requested(SLOT),
        help=locked,
    )
    run_requested_spend(conn, SLOT, lambda subjects, units: _read(conn, subjects, units))
    return False


def _no_report(domain: str, err: NotFoundError) -> None:
    st.info(
        f"**There is no site-check report for {escape_md(domain)} yet.** The service keeps reports "
        f"only for sites that were submitted with a site check. {HOW_TO_CREATE}",
        icon=":material/find_in_page:",
    )
    if err.message:
        st.caption(f"Service said: {escape_md(err.message)}")
    link_to(
        MY_SITES,
        label="Submit a site with a site check",
        icon=":material/add_circle:",
        query_params={"sites_tab": "Submit a site"},
    )


def _verdict(check: SiteCheck) -> None:
    style = verdict_style(check.verdict)
    with st.container(border=True):
        left, right = st.columns([1, 2])
        with left:
            st.caption("Verdict")
            st.subheader(f":{style.colour}[{style.icon} {escape_md(style.label)}]", anchor=False)
            st.caption(escape_md(style.meaning))
        with right:
            if check.reasons:
                st.markdown("**Why**")
                st.markdown("\n".join(f"- {escape_md(reason)}" for reason in check.reasons))
            else:
                st.success(
                    "Nothing wrong found: the checks raised no red flags.", icon=":material/check_circle:"
                )


def _evidence_note(check: SiteCheck) -> None:
    missing = missing_signals(check)
    if missing:
        st.warning(
            f"**{len(missing)} of {len(signals(check))} signals are not available** "
            f"({escape_md(', '.join(missing))}). Missing signals weaken the evidence behind the verdict: "
            "they are neither for nor against the site.",
            icon=":material/help:",
        )
    else:
        st.caption("Every signal was available, so the verdict rests on the full evidence.")


def _signal_cards(check: SiteCheck) -> None:
    for group, items in signal_groups(check).items():
        st.markdown(f"**{group}**")
        cards = [s for s in items if s.name != "Homepage title"]
        cols = st.columns(4)
        for i, signal in enumerate(cards):
            cols[i % 4].metric(signal.name, signal.shown, border=True)


def _report(check: SiteCheck) -> None:
    site_heading(check.domain, check.title)
    _verdict(check)
    _evidence_note(check)
    _signal_cards(check)
    with st.expander("All signals as a table"):
        table_with_export(
            signals_frame(check),
            what="site-check",
            subject=check.domain,
            key="site_check",
            column_config=SIGNAL_COLUMNS,
        )
    cols = st.columns([1, 1, 3])
    with cols[0]:
        link_to(TRUST_MAP, query_params={"domain": check.domain})
    with cols[1]:
        link_to(OVERVIEW, query_params={"domain": check.domain})


def site_check_report(conn: Connection, raw: str) -> None:
    """The typed site's report once it may be read (free when cached, else after an editor's click)."""
    try:
        domain = data.domain(raw)
    except InvalidInputError as exc:
        show_error(exc)
        return
    if not _may_read(conn, domain):
        return
    check = read_or_show_error(
        data.site_check, conn, domain, subject=domain, not_found=partial(_no_report, domain)
    )
    if check is None:
        return
    _report(check)
