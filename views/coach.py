"""Coach: what is wrong with a site's authority and what to do next, with the evidence behind it.

The advice is built locally (``components.coach.rules``) from the site's lookup, its Trust Map and exchange
candidates, with the vdr CLI's coach rules. Only the open tab runs, so the Trust Map is read only
when the backlink audit is opened.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from client.errors import ApiError, InvalidInputError, NotFoundError, UnavailableError
from client.growth_inputs import DiscoveryFilters
from client.growth_models import ExchangeCandidate
from client.inputs import normalise_domain
from client.models import Lookup, TrustMap
from components.coach import rules as coach
from components.coach.charts import impact_effort_chart, link_mix_chart, plan_chart, scores_chart, spam_chart
from components.coach.frames import (
    actions_frame,
    flagged_frame,
    link_mix_frame,
    links_frame,
    plan_frame,
    reasons_frame,
    referring_frame,
    track_frame,
)
from components.common.text import NOT_AVAILABLE, escape_md, fmt_int
from components.core import data
from components.core.connection import Connection, current_connection
from components.core.demo_picker import demo_picker
from components.core.errors import show_error
from components.core.sidebar import RESULT_PREFIX
from components.core.tables import table_with_export
from components.overview.charts import changes_chart
from components.overview.frames import changes_frame
from components.overview.widgets import signed
from components.sites.widgets import link_if_present

TABS = (
    "Analyze",
    "Diagnose",
    "Actions",
    "Audit backlinks",
    "Content plan",
    "Fix",
    "Track",
    "Explain",
    "Boost",
    "Next",
)
TAB_KEY = "coach"
DEMO_DOMAINS = ("example.com", "acme-widgets.com", "tinyblog.net", "stripe.com")
#: Exchange candidates as the vdr CLI's "next" asks for them: traffic-validated, TrueDR 20+, a few.
PARTNER_FILTERS = DiscoveryFilters(
    traffic_validated=True, min_true_dr=coach.PARTNER_MIN_TRUE_DR, limit=coach.PARTNER_CANDIDATE_LIMIT
)
#: The Link exchanges page's own filters, set to match, so the suggested partner is in its list.
EXCHANGES_QUERY = {"ex_validated": "true", "ex_min_true_dr": str(coach.PARTNER_MIN_TRUE_DR)}
#: Where the Link exchanges page records (domain, partner) pairs it sent a proposal for this session.
EXCHANGES_SENT_KEY = RESULT_PREFIX + "exchange_sent"
#: The goal input's bounds: TrueDR is 0–100, and a 90-day plan past +50 is not a plan.
MAX_GOAL = 50

ISSUE_LEVEL = {"inflated": "warning", "unbacked": "warning", "low_trust": "warning", "trailing": "info"}
STATUS_BADGE = {
    "weak": ("Weak", "orange", ":material/error:"),
    "ok": ("OK", "green", ":material/check_circle:"),
    "unknown": ("Unknown", "gray", ":material/help:"),
}

PROGRESS = st.column_config.ProgressColumn
ACTION_COLUMNS = {
    "rank": st.column_config.NumberColumn("#", format="%d"),
    "action": st.column_config.TextColumn("Action"),
    "priority": st.column_config.NumberColumn("Priority", help="Impact + effort bonus + confidence bonus"),
    "impact_score": PROGRESS("Impact", min_value=0, max_value=10, format="%d"),
    "effort": st.column_config.TextColumn("Effort"),
    "confidence": st.column_config.TextColumn("Confidence"),
    "lift_low": st.column_config.NumberColumn("TrueDR lift from", format="+%d"),
    "lift_high": st.column_config.NumberColumn("to", format="+%d"),
    "impact": st.column_config.TextColumn("Heuristic impact"),
    "heuristic": st.column_config.CheckboxColumn("Heuristic"),
    "why": st.column_config.TextColumn("Why"),
    "data": st.column_config.TextColumn("From data"),
    "cli": st.column_config.TextColumn("Same step in the vdr CLI"),
}
REASON_COLUMNS = {
    "signal": st.column_config.TextColumn("Signal", pinned=True),
    "status": st.column_config.TextColumn("Verdict"),
    "value": st.column_config.TextColumn("Evidence"),
    "threshold": st.column_config.TextColumn("Rule"),
    "finding": st.column_config.TextColumn("What it means"),
    "data": st.column_config.TextColumn("From data"),
}
LINK_COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True),
    "dr": PROGRESS("DR", min_value=0, max_value=100, format="%d"),
    "follow": st.column_config.CheckboxColumn("Follow"),
    "status": st.column_config.TextColumn("Status"),
    "spam_score": PROGRESS("Spam score", min_value=0, max_value=100, format="%.0f"),
    "backlinks": st.column_config.NumberColumn("Backlinks", format="localized"),
    "importance": st.column_config.NumberColumn("Importance", format="%.1f"),
    "flags": st.column_config.TextColumn("Flags"),
    "anchor": st.column_config.TextColumn("Anchor text"),
    "url": st.column_config.LinkColumn("Linking page"),
}
PLAN_COLUMNS = {
    "days": st.column_config.TextColumn("When", pinned=True),
    "step": st.column_config.TextColumn("Step"),
    "detail": st.column_config.TextColumn("How"),
    "lift_low": st.column_config.NumberColumn("TrueDR lift from", format="+%d"),
    "lift_high": st.column_config.NumberColumn("to", format="+%d"),
    "heuristic": st.column_config.CheckboxColumn("Heuristic"),
}
TRACK_COLUMNS = {
    "metric": st.column_config.TextColumn("Metric"),
    "weekly": st.column_config.NumberColumn("Weekly change", format="%+.1f"),
    "monthly": st.column_config.NumberColumn("Monthly change", format="%+.1f"),
}


# --- small shared pieces ---------------------------------------------------------------------------


def _open_tab(name: str) -> None:
    st.session_state[TAB_KEY] = name


def _sources(sources: Sequence[str]) -> None:
    """Say which data a piece of advice came from (field names are ours, shown as code)."""
    names = " · ".join(f"`{name}`" for name in dict.fromkeys(sources))
    st.caption(f"From: {names}")


def _heuristic(text: str) -> None:
    st.markdown(f":orange-badge[Heuristic] {escape_md(text)}")


def _follow_up(action: coach.Action, key: str, here: str) -> None:
    if action.follow_up and action.follow_up in TABS and action.follow_up != here:
        st.button(
            f"Go to {action.follow_up}",
            key=f"{key}_{action.key}",
            on_click=_open_tab,
            args=(action.follow_up,),
            icon=":material/arrow_forward:",
        )


def _action_card(action: coach.Action, rank: int, domain: str, here: str) -> None:
    with st.container(border=True):
        st.markdown(f"**{rank}. {escape_md(action.title)}**")
        st.write(action.detail)
        _heuristic(action.impact)
        st.caption(
            f"Priority {action.priority} · effort {action.effort} · confidence {action.confidence} · "
            f"in the vdr CLI: `{action.cli_for(domain)}`"
        )
        _sources(action.sources)
        _follow_up(action, here.lower(), here)


def _issue(issue: coach.MainIssue) -> None:
    level = ISSUE_LEVEL.get(issue.kind)
    body = f"**Main issue:** {escape_md(issue.text)}"
    if level == "warning":
        st.warning(body, icon=":material/warning:")
    elif level == "info":
        st.info(body, icon=":material/info:")
    else:
        st.success(body, icon=":material/check_circle:")
    if issue.caveat:
        st.caption(escape_md(issue.caveat))


def _change(value: float | None, digits: int = 0) -> int | str:
    """A change as signed text; 0 stays 0 and only a missing change reads "not available"."""
    text = signed(value, digits)
    return NOT_AVAILABLE if text is None else text


def _score(value: int | None) -> int | str:
    return NOT_AVAILABLE if value is None else value


# --- tabs ----------------------------------------------------------------------------------------


def _analyze(lookup: Lookup, domain: str) -> None:
    result = coach.analyze(lookup)
    left, right = st.columns([2, 3])
    with left:
        cols = st.columns(3)
        cols[0].metric("DR", _score(result.dr), border=True)
        cols[1].metric("TrueDR", _score(result.true_dr), border=True)
        cols[2].metric(
            "Gap",
            NOT_AVAILABLE if result.gap is None else f"{result.gap:+d}",
            help=f"TrueDR − DR, rounded. {coach.INFLATED_GAP} or lower means DR outruns its evidence.",
            border=True,
        )
        _issue(result.issue)
        _sources(result.issue.sources)
    with right:
        st.plotly_chart(data.figure(scores_chart, result), key="coach_scores_chart")
    st.markdown("#### Top actions")
    for rank, action in enumerate(result.top_actions, start=1):
        _action_card(action, rank, domain, "Analyze")


def _diagnose(lookup: Lookup, domain: str) -> None:
    result = coach.diagnose(lookup)
    _issue(result.issue)
    st.markdown("#### Why, with the public evidence")
    cols = st.columns(2)
    for i, reason in enumerate(result.reasons):
        label, colour, icon = STATUS_BADGE[reason.status]
        with cols[i % 2].container(border=True):
            st.markdown(f"**{escape_md(reason.signal)}: {escape_md(reason.value)}**")
            st.badge(label, color=colour, icon=icon)  # type: ignore[arg-type]
            st.write(reason.finding)
            st.caption(f"Rule: {escape_md(reason.threshold)}")
            _sources(reason.sources)
    with st.expander("The evidence as a table"):
        table_with_export(
            reasons_frame(result),
            what="coach-diagnosis",
            subject=domain,
            key="diagnosis",
            column_config=REASON_COLUMNS,
        )
    st.markdown(f"**Next:** {escape_md(result.first_action.title)}")


def _actions(lookup: Lookup, domain: str) -> None:
    actions = coach.ranked_actions(lookup)
    frame = actions_frame(actions, domain)
    bonus = ", ".join(f"{effort} {points}" for effort, points in coach.EFFORT_BONUS.items())
    st.caption(
        f"Ranked by priority = impact score + effort bonus ({bonus}) + {coach.HIGH_CONFIDENCE_BONUS} for "
        "high confidence, as the vdr CLI ranks them. Impacts are heuristic estimates, not service data."
    )
    st.plotly_chart(data.figure(impact_effort_chart, frame), key="coach_actions_chart")
    table_with_export(
        frame, what="coach-actions", subject=domain, key="actions", column_config=ACTION_COLUMNS
    )


def _load_map(conn: Connection, domain: str) -> tuple[TrustMap | None, coach.MapState]:
    """The Trust Map, or why there is none: a cold cache (503) means it is being built."""
    try:
        return data.trust_map(conn, domain), "ready"
    except UnavailableError:
        return None, "building"
    except ApiError as exc:
        show_error(exc, subject=f"the Trust Map of {domain}")
        return None, "unavailable"


def _audit(conn: Connection, lookup: Lookup, domain: str) -> None:
    trust_map, state = _load_map(conn, domain)
    audit = coach.audit_backlinks(lookup, trust_map, map_state=state)
    cols = st.columns(3)
    cols[0].metric(
        "Trust score",
        NOT_AVAILABLE if audit.trust is None else f"{audit.trust}/100",
        border=True,
        help=f"Under {coach.WEAK_TRUST} is weak.",
    )
    cols[1].metric("Referring domains", fmt_int(audit.referring_domains), border=True)
    cols[2].metric(
        "In the Trust Map",
        NOT_AVAILABLE if state != "ready" else fmt_int(audit.mapped),
        help="The service caches up to 60 referring domains per site, most important first."
        + ("" if audit.total_domains is None else f" Total known: {audit.total_domains:,}."),
        border=True,
    )
    risk_box = {True: st.warning, False: st.success, None: st.info}[audit.trust_risk]
    risk_box(f"**Trust risk:** {escape_md(audit.risk)}", icon=":material/shield:")
    if audit.map_note:
        st.info(escape_md(audit.map_note), icon=":material/hourglass_top:")

    if state == "ready" and audit.mapped:
        _audit_map(audit, trust_map, domain)

    where = (
        "the Trust Map's referring domains" if audit.links_from == "map" else "the lookup's public backlinks"
    )
    st.markdown(f"#### Strongest and weakest links, from {where}")
    left, right = st.columns(2)
    for col, label, rows, key in (
        (left, "Strongest", audit.strongest, "audit_strongest"),
        (right, "Weakest", audit.weakest, "audit_weakest"),
    ):
        with col:
            st.markdown(f"**{label}**")
            frame = links_frame(rows)
            if frame.empty:
                st.caption("The service returned none.")
            else:
                table_with_export(
                    frame.dropna(axis="columns", how="all"),
                    what=f"{label.lower()}-links",
                    subject=domain,
                    key=key,
                    column_config=LINK_COLUMNS,
                )
    st.markdown(f"**Next:** {escape_md(audit.next_step)}")
    link_if_present(
        "views/trust-map.py",
        label="Open the full Trust Map",
        icon=":material/hub:",
        query_params={"domain": domain},
    )
    _sources(audit.sources)


def _audit_map(audit: coach.BacklinkAudit, trust_map: TrustMap | None, domain: str) -> None:
    cols = st.columns(4)
    cols[0].metric("Live follow", audit.live_follow, border=True)
    cols[1].metric(f"Spam score ≥ {coach.SPAM_FLAG}", len(audit.spam), border=True)
    cols[2].metric("Lost", len(audit.lost), border=True)
    cols[3].metric("Nofollow", len(audit.nofollow), border=True)
    for finding in audit.findings:
        with st.container(border=True):
            st.markdown(f":orange-badge[Heuristic] **{escape_md(finding.title)}**")
            st.write(escape_md(finding.detail))
            _sources(finding.sources)
    left, right = st.columns(2)
    with left:
        st.plotly_chart(data.figure(link_mix_chart, link_mix_frame(trust_map)), key="coach_mix_chart")
    with right:
        st.plotly_chart(data.figure(spam_chart, referring_frame(trust_map)), key="coach_spam_chart")
    st.markdown("#### Flagged referring domains")
    flagged = flagged_frame(audit)
    if flagged.empty:
        st.caption("No mapped referring domain is spam-flagged, lost or nofollow.")
        return
    table_with_export(
        flagged.drop(columns=["anchor", "url"]),
        what="flagged-referring-domains",
        subject=domain,
        key="audit_flagged",
        column_config=LINK_COLUMNS,
    )


def _content_plan(lookup: Lookup) -> None:
    plan = coach.content_plan(lookup)
    st.write(plan.lead)
    for item in plan.items:
        with st.container(border=True):
            pages = "one page" if item.count == 1 else f"{item.count} pages"
            start = " :green-badge[Start here]" if item.start_here else ""
            st.markdown(f"**{escape_md(item.title)}** ({pages}){start}")
            _heuristic(item.impact)
            st.write(item.why)
            _sources(item.sources)
    st.caption("Track the effect in the Track tab: TrueDR and traffic changes show whether the pages work.")


def _fix(lookup: Lookup, domain: str) -> None:
    goal = st.number_input(
        "TrueDR goal (points to gain in 90 days)",
        min_value=1,
        max_value=MAX_GOAL,
        value=coach.DEFAULT_GOAL,
        step=1,
        key="goal",
        bind="query-params",
    )
    plan = coach.fix_plan(lookup, int(goal or coach.DEFAULT_GOAL))
    cols = st.columns(3)
    cols[0].metric("TrueDR now", _score(plan.true_dr), border=True)
    cols[1].metric("Target TrueDR", _score(plan.target), f"+{plan.goal}", border=True)
    cols[2].metric(
        "Estimated lift of the plan",
        f"+{plan.lift[0]} to +{plan.lift[1]}",
        border=True,
        help="Heuristic: the sum of the three steps' estimated TrueDR lifts, if each lands.",
    )
    _heuristic(plan.outlook)
    frame = plan_frame(plan)
    st.plotly_chart(data.figure(plan_chart, frame), key="coach_plan_chart")
    table_with_export(
        frame.drop(columns=["start_day", "end_day"]),
        what="coach-90-day-plan",
        subject=domain,
        key="plan",
        column_config=PLAN_COLUMNS,
    )
    _sources(plan.sources)


def _track(lookup: Lookup, domain: str) -> None:
    report = coach.track(lookup)
    cols = st.columns(3)
    cols[0].metric("TrueDR this week", _change(report.true_dr_weekly, 1), border=True)
    cols[1].metric("DR this week", _change(report.dr_weekly, 1), border=True)
    cols[2].metric("Traffic this week", _change(report.traffic_change), help="Change in visits.", border=True)
    box = st.success if report.improving else st.info
    box(f"**Verdict:** {escape_md(report.verdict)}", icon=":material/monitoring:")
    for note in report.observations:
        st.markdown(f"- {escape_md(note)}")
    st.plotly_chart(data.figure(changes_chart, changes_frame(lookup)), key="coach_track_chart")
    with st.expander("The changes as a table"):
        table_with_export(
            track_frame(report), what="coach-track", subject=domain, key="track", column_config=TRACK_COLUMNS
        )
    st.caption(
        "These are the service's own weekly and monthly changes; the app keeps no history of its own yet. "
        f"Next: {escape_md(report.next_action.title)}."
    )
    _sources(report.sources)


def _explain(lookup: Lookup) -> None:
    st.write("A paragraph for a client or founder. Copy it with the button at the top right of the box.")
    st.code(coach.explain(lookup), language=None, wrap_lines=True)
    _sources((*coach.GAP_SOURCES, coach.SRC_RULES))


def _boost(lookup: Lookup, domain: str) -> None:
    campaign = coach.boost(lookup)
    st.markdown("#### Recommended campaign")
    st.markdown("\n".join(f"{i}. {escape_md(step)}" for i, step in enumerate(campaign.steps, start=1)))
    if campaign.padded:
        st.caption("Fewer than four actions apply to this site, so the campaign adds a partner-links idea.")
    _heuristic(campaign.result)
    st.markdown(f"**Start with:** {escape_md(campaign.start_with.title)}")
    st.caption(f"In the vdr CLI: `{campaign.start_with.cli_for(domain)}`")
    _sources(campaign.sources)


def _candidates(conn: Connection, domain: str) -> list[ExchangeCandidate] | None:
    """Exchange candidates as the vdr CLI asks for them; None (with the error shown) when unavailable."""
    try:
        return data.exchange_candidates(conn, domain, PARTNER_FILTERS).candidates
    except ApiError as exc:
        show_error(exc, subject=f"exchange candidates for {domain}")
        return None


def _contacted(domain: str) -> set[str]:
    """Partners this session already sent a proposal to from ``domain`` (kept by the exchanges page)."""
    sent = st.session_state.get(EXCHANGES_SENT_KEY) or set()
    return {target for source, target in sent if source == domain}


def _partner_card(pick: coach.PartnerPick, domain: str) -> None:
    with st.container(border=True):
        title = f" — {escape_md(pick.title)}" if pick.title else ""
        st.markdown(f"**{escape_md(pick.domain)}**{title}")
        cols = st.columns(3)
        cols[0].metric("TrueDR", _score(pick.true_dr))
        cols[1].metric("DR", _score(pick.dr))
        cols[2].metric("Traffic", fmt_int(pick.traffic))
        if pick.reason:
            angle = escape_md((pick.angle or "partnership").replace("_", " "))
            st.markdown(f"**Why it fits** ({angle}): {escape_md(pick.reason)}")
        shown = link_if_present(
            "views/exchanges.py",
            label=f"Preview a proposal to {pick.domain}",
            icon=":material/visibility:",
            query_params=EXCHANGES_QUERY | {"domain": domain},
            help="Opens Link exchanges with this site chosen. Pick the partner there; a preview (a dry run) "
            "comes first and nothing is sent until you approve the previewed text.",
        )
        if not shown:
            st.caption(f"In the vdr CLI: `vdr opportunities {domain} --contact {pick.target} --dry-run`")
    st.caption(
        "Proposals are sent from one of your own sites, always previewed first. "
        f"From: `{coach.SRC_CANDIDATES}` (traffic-validated, TrueDR {coach.PARTNER_MIN_TRUE_DR}+)."
    )


def _next(conn: Connection, lookup: Lookup, domain: str) -> None:
    action = coach.ranked_actions(lookup)[0]
    candidates = _candidates(conn, domain) if action.key == coach.PARTNER.key else None
    step = coach.next_step(lookup, candidates, _contacted(domain))
    _action_card(step.action, 1, domain, "Next")
    if step.action.key != coach.PARTNER.key:
        return
    st.markdown("#### The partner to contact")
    if step.partner is not None:
        _partner_card(step.partner, domain)
    elif candidates is not None:
        st.info(escape_md(step.partner_note or ""), icon=":material/person_search:")
        link_if_present(
            "views/exchanges.py",
            label="See all exchange candidates",
            icon=":material/handshake:",
            query_params={"domain": domain},
        )


# --- page ----------------------------------------------------------------------------------------


def _demo_picker(conn: Connection) -> None:
    st.caption(
        "Type a domain to see what holds its TrueDR back and what to do next. The advice is built "
        "locally with the vdr CLI's coach rules; lookups spend no quota."
    )
    demo_picker(conn, DEMO_DOMAINS, key_prefix="coach_demo")


def _load_lookup(conn: Connection, raw: str) -> tuple[str, Lookup] | None:
    try:
        domain = normalise_domain(raw)
        return domain, data.lookup(conn, domain)
    except InvalidInputError as exc:
        show_error(exc)
    except NotFoundError:
        name = normalise_domain(raw)
        st.info(
            f"**{escape_md(name)} is not listed**, so there is no TrueDR, trust or evidence to coach from.",
            icon=":material/info:",
        )
        st.page_link(
            "views/overview.py",
            label="Check its plain DR on the Domain overview",
            query_params={"domain": name},
            icon=":material/travel_explore:",
        )
    except ApiError as exc:
        show_error(exc, subject=raw.strip())
    return None


def _coach(conn: Connection, domain: str, lookup: Lookup) -> None:
    title = f" — {escape_md(lookup.title)}" if lookup.title else ""
    st.subheader(f"{escape_md(lookup.domain)}{title}", anchor=False)
    tabs = st.tabs(TABS, key=TAB_KEY, bind="query-params")
    views = {
        "Analyze": lambda: _analyze(lookup, domain),
        "Diagnose": lambda: _diagnose(lookup, domain),
        "Actions": lambda: _actions(lookup, domain),
        "Audit backlinks": lambda: _audit(conn, lookup, domain),
        "Content plan": lambda: _content_plan(lookup),
        "Fix": lambda: _fix(lookup, domain),
        "Track": lambda: _track(lookup, domain),
        "Explain": lambda: _explain(lookup),
        "Boost": lambda: _boost(lookup, domain),
        "Next": lambda: _next(conn, lookup, domain),
    }
    for name, tab in zip(TABS, tabs, strict=True):
        if tab.open:
            with tab:
                views[name]()


conn = current_connection()
st.title("Coach", anchor=False)
domain_text = st.text_input(
    "Domain",
    key="domain",
    bind="query-params",
    placeholder="example.com",
    help="A domain, subdomain or URL; it is coached as its registrable domain.",
)
if domain_text and domain_text.strip():
    loaded = _load_lookup(conn, domain_text)
    if loaded is not None:
        _coach(conn, *loaded)
else:
    _demo_picker(conn)
