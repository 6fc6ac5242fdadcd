"""The coach's rules, table-driven over every branch of the vdr CLI's coach, plus what the app adds.

The CLI's rules (contract-notes.md, "Coach rules") are the oracle: each table row is one branch
with the inputs that reach it. Null tolerance is checked on hand-made sparse lookups, on a sandbox
lookup with every nullable field nulled, and on generated lookups.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.coach import charts as coach_charts
from analysis.coach import frames as coach_frames
from analysis.coach import rules as coach
from client.growth_models import ExchangeCandidate, Opportunity
from client.models import Authority, Backlink, Changes, Evidence, Lookup, MapSite, ReferringDomain, TrustMap
from sandbox import data as sandbox_data
from sandbox import resources
from sandbox.faults import nullify

STRONG: dict[str, Any] = {
    "dr": 50,
    "true_dr": 50,
    "trust": 80,
    "validated": True,
    "traffic": 20_000,
    "referring": 500,
    "confidence": "high",
}


def make(domain: str = "site.com", **given_values: Any) -> Lookup:
    """A lookup from the STRONG profile with some values replaced (None means the service omitted it)."""
    v = {**STRONG, **given_values}
    return Lookup(
        domain=domain,
        authority=Authority(
            dr=v["dr"],
            true_dr=v["true_dr"],
            trust_score=v["trust"],
            confidence=v["confidence"],
            traffic_validated=v["validated"],
        ),
        evidence=Evidence(
            traffic=v["traffic"],
            referring_domains=v["referring"],
            top_backlinks=v.get("top"),
            bottom_backlinks=v.get("bottom"),
        ),
        changes=Changes(
            dr_weekly_change=v.get("dr_week"),
            true_dr_weekly_change=v.get("true_dr_week"),
            dr_monthly_change=v.get("dr_month"),
            true_dr_monthly_change=v.get("true_dr_month"),
            traffic_change=v.get("traffic_change"),
        ),
    )


# --- main issue: every branch, in the CLI's order -----------------------------------------------

ISSUE_CASES = [
    # inflated: gap ≤ −10, weak traffic and weak trust
    ("inflated", {"true_dr": 38, "validated": False, "traffic": 500, "trust": 55}),
    ("inflated at the gap boundary", {"true_dr": 40, "validated": False, "trust": 59}),
    (
        "inflated, unknown traffic counts as weak",
        {"true_dr": 30, "validated": None, "traffic": None, "trust": 40},
    ),
    ("inflated, validated but under 1,000 visits", {"true_dr": 35, "traffic": 999, "trust": 30}),
    # unbacked: gap ≤ −10 with weak traffic, trust not weak
    ("unbacked", {"true_dr": 38, "validated": False, "trust": 70}),
    ("unbacked, unknown trust is not weak", {"true_dr": 30, "validated": False, "trust": None}),
    ("unbacked at the trust boundary", {"true_dr": 40, "traffic": 10, "trust": 60}),
    # low trust: trust < 50 on its own
    ("low_trust", {"true_dr": 45, "trust": 45}),
    ("low_trust with a big gap but strong traffic", {"true_dr": 30, "trust": 49}),
    ("low_trust with an unknown gap", {"dr": None, "trust": 20}),
    # trailing: gap < 0 otherwise
    ("trailing", {"true_dr": 47, "trust": 55}),
    ("trailing at the trust boundary", {"true_dr": 41, "trust": 50}),
    ("trailing, big gap but strong traffic and trust", {"true_dr": 20}),
    # aligned: everything else
    ("aligned", {}),
    ("aligned, TrueDR above DR", {"true_dr": 53}),
    ("aligned, small positive rounding", {"dr": 50, "true_dr": 50, "trust": 50}),
    ("aligned, unknown values", {"dr": None, "true_dr": None, "trust": None, "traffic": None}),
]


@pytest.mark.parametrize(("case", "values"), ISSUE_CASES, ids=[c for c, _ in ISSUE_CASES])
def test_main_issue_follows_the_cli_rules_in_order(case: str, values: dict[str, Any]) -> None:
    issue = coach.main_issue(make(**values))
    assert issue.kind == case.split(",")[0].split(" ")[0]
    assert issue.text == coach.ISSUE_TEXT[issue.kind]
    assert issue.sources, "every verdict names the data it came from"


def test_a_verdict_resting_on_missing_data_says_so() -> None:
    sparse = coach.main_issue(make(dr=None, trust=None))
    assert sparse.caveat is not None and "DR" in sparse.caveat and "trust score" in sparse.caveat
    assert coach.main_issue(make()).caveat is None


def test_gap_is_rounded_true_dr_minus_dr() -> None:
    assert coach.gap_of(40, 29.6) == -10
    assert coach.gap_of(40.4, 30) == -10
    assert coach.gap_of(None, 30) is None
    assert coach.gap_of(True, 30) is None  # a boolean is not a rating


# --- actions: conditions, scores, ranking ----------------------------------------------------------

#: The CLI's scores for each action: (impact, effort, confidence) and the priority they give.
CLI_SCORES = {
    "partner": (9, "low", "high", 14),
    "directories": (6, "low", "high", 11),
    "risky_links": (5, "medium", "high", 8),
    "traffic": (8, "high", "medium", 8),
    "confidence": (4, "medium", "medium", 5),
    "protect": (3, "low", "medium", 6),
}

ACTION_CASES = [
    (
        "every condition",
        {"referring": 10, "trust": 40, "validated": False, "confidence": "low"},
        ["partner", "directories", "risky_links", "traffic", "confidence"],
    ),
    ("nothing conditional applies", {}, ["partner", "protect"]),
    ("unknown referring domains", {"referring": None}, ["partner", "directories"]),
    ("49 referring domains is thin", {"referring": 49}, ["partner", "directories"]),
    ("50 referring domains is not", {"referring": 50}, ["partner", "protect"]),
    ("weak trust", {"trust": 59}, ["partner", "risky_links"]),
    ("unknown trust is not weak", {"trust": None}, ["partner", "protect"]),
    ("weak traffic", {"traffic": None}, ["partner", "traffic"]),
    ("medium confidence", {"confidence": "medium"}, ["partner", "confidence"]),
    ("unknown confidence", {"confidence": None}, ["partner", "confidence"]),
    (
        "trust and traffic tie at 8: rule order wins",
        {"trust": 55, "validated": False},
        ["partner", "risky_links", "traffic"],
    ),
]


@pytest.mark.parametrize(("case", "values", "expected"), ACTION_CASES, ids=[c for c, _, _ in ACTION_CASES])
def test_actions_apply_and_rank_as_in_the_cli(case: str, values: dict[str, Any], expected: list[str]) -> None:
    ranked = coach.ranked_actions(make(**values))
    assert [a.key for a in ranked] == expected
    assert [a.priority for a in ranked] == sorted((a.priority for a in ranked), reverse=True)


@pytest.mark.parametrize("action", coach.ACTIONS, ids=[a.key for a in coach.ACTIONS])
def test_each_action_keeps_the_cli_scores(action: coach.Action) -> None:
    impact, effort, confidence, priority = CLI_SCORES[action.key]
    assert (action.impact_score, action.effort, action.confidence) == (impact, effort, confidence)
    assert action.priority == priority
    assert action.heuristic and action.lift[0] < action.lift[1]
    assert action.sources
    assert action.cli_for("a.com").startswith("vdr ") and "a.com" in action.cli_for("a.com")


def test_ranking_is_by_priority_and_stable_on_ties() -> None:
    shuffled = [coach.CONFIDENCE, coach.TRAFFIC, coach.PARTNER, coach.RISKY_LINKS, coach.DIRECTORIES]
    ranked = coach.rank_actions(shuffled)
    assert [a.key for a in ranked] == ["partner", "directories", "traffic", "risky_links", "confidence"]
    # the tie (8) keeps the order it came in: rule order when the coach builds the list
    assert [a.key for a in coach.rank_actions([coach.RISKY_LINKS, coach.TRAFFIC])] == [
        "risky_links",
        "traffic",
    ]


def test_priority_formula() -> None:
    assert coach.action_priority(7, "low", "high") == 7 + 3 + 2
    assert coach.action_priority(7, "medium", "medium") == 7 + 1
    assert coach.action_priority(7, "high", "high") == 7 + 2
    assert coach.action_priority(7, "unheard-of", "medium") == 7


def test_analyze_shows_scores_issue_and_the_top_three_actions() -> None:
    lookup = make(dr=40, true_dr=25, referring=10, trust=40, validated=False, confidence="low")
    result = coach.analyze(lookup)
    assert (result.dr, result.true_dr, result.gap) == (40, 25, -15)
    assert result.issue.kind == "inflated"
    assert [a.key for a in result.top_actions] == ["partner", "directories", "risky_links"]


# --- diagnose -------------------------------------------------------------------------------------


def test_diagnose_puts_the_evidence_next_to_each_reason() -> None:
    result = coach.diagnose(make(true_dr=35, trust=45, validated=False, traffic=800, referring=30))
    by_signal = {r.signal: r for r in result.reasons}
    assert {"Trust score", "Traffic validated", "Traffic", "Referring domains"} <= set(by_signal)
    assert by_signal["Trust score"].value == "45/100" and by_signal["Trust score"].status == "weak"
    assert by_signal["Traffic validated"].value == "no"
    assert by_signal["Traffic"].value == "800 visits/month" and by_signal["Traffic"].status == "weak"
    assert by_signal["Referring domains"].value == "30" and by_signal["Referring domains"].status == "weak"
    assert by_signal["TrueDR − DR"].value == "-15"
    assert result.first_action.key == "partner"
    assert all(r.sources for r in result.reasons)


def test_diagnose_marks_unknown_evidence_as_unknown_not_zero() -> None:
    result = coach.diagnose(make(dr=None, trust=None, traffic=None, referring=None, confidence=None))
    by_signal = {r.signal: r for r in result.reasons}
    assert by_signal["Trust score"].status == "unknown" and by_signal["Trust score"].value == "unknown"
    assert by_signal["TrueDR − DR"].status == "unknown"
    assert (
        by_signal["Traffic"].value == "unknown" and by_signal["Traffic"].status == "weak"
    )  # CLI: unknown is weak
    assert by_signal["Referring domains"].value == "unknown"


# --- audit backlinks ------------------------------------------------------------------------------


def ref(
    domain: str,
    dr: int | None = 30,
    *,
    spam: float | None = 10,
    kind: str | None = "dofollow",
    status: str | None = "live",
) -> ReferringDomain:
    return ReferringDomain(domain=domain, dr=dr, spam_score=spam, link_type=kind, status=status, backlinks=3)


def a_map(rows: list[ReferringDomain], total: int | None = None) -> TrustMap:
    return TrustMap(site=MapSite(domain="site.com"), total_domains=total, domains=rows)


AUDIT_ROWS = [
    ref("spam-edge.com", 12, spam=50),
    ref("almost-spam.com", 15, spam=49.9),
    ref("lost-strong.com", 70, status="lost"),
    ref("nofollow.com", 35, kind="nofollow"),
    ref("spam-and-nofollow.com", 5, spam=80, kind="nofollow"),
    ref("unknown-dr.com", None),
    ref("unknown-type.com", 60, kind=None, status=None),
    ref("clean-strong.com", 90),
]


def test_audit_flags_spam_lost_and_nofollow_from_the_trust_map() -> None:
    audit = coach.audit_backlinks(make(trust=55), a_map(AUDIT_ROWS, total=120))
    assert audit.map_state == "ready" and audit.links_from == "map"
    assert [r.domain for r in audit.spam] == ["spam-edge.com", "spam-and-nofollow.com"]
    assert [r.domain for r in audit.lost] == ["lost-strong.com"]
    assert [r.domain for r in audit.nofollow] == ["nofollow.com", "spam-and-nofollow.com"]
    flagged = [r.domain for r in audit.flagged]
    assert sorted(flagged) == sorted(set(flagged))  # each once
    assert set(flagged) == {"spam-edge.com", "spam-and-nofollow.com", "lost-strong.com", "nofollow.com"}
    # the CLI's "live follow": not nofollow and not lost (unknown type and status count)
    expected_live = [r.domain for r in AUDIT_ROWS if r.link_type != "nofollow" and r.status != "lost"]
    assert audit.live_follow == len(expected_live)
    assert audit.total_domains == 120 and audit.mapped == len(AUDIT_ROWS)
    assert audit.trust_risk is True


def test_audit_strongest_and_weakest_never_rank_an_unknown_dr() -> None:
    audit = coach.audit_backlinks(make(), a_map(AUDIT_ROWS))
    known = sorted((r for r in AUDIT_ROWS if r.dr is not None), key=lambda r: r.dr or 0)
    assert [r.domain for r in audit.strongest] == [r.domain for r in reversed(known)][: coach.AUDIT_LINKS]
    assert [r.domain for r in audit.weakest] == [r.domain for r in known][: coach.AUDIT_LINKS]
    assert "unknown-dr.com" not in {r.domain for r in (*audit.strongest, *audit.weakest)}


@pytest.mark.parametrize(
    ("trust", "risk"), [(59, True), (60, False), (None, None)], ids=["weak", "healthy", "unknown"]
)
def test_audit_trust_risk(trust: int | None, risk: bool | None) -> None:
    audit = coach.audit_backlinks(make(trust=trust))
    assert audit.trust_risk is risk
    assert audit.risk


def test_cold_map_falls_back_to_the_lookups_public_backlinks() -> None:
    top = [Backlink(source_domain=f"top{i}.com", dr=90 - i, follow=True) for i in range(7)]
    bottom = [Backlink(source_domain=f"low{i}.com", dr=i, follow=i % 2 == 0) for i in range(3)]
    audit = coach.audit_backlinks(make(top=top, bottom=bottom), None, map_state="building")
    assert audit.links_from == "lookup"
    assert audit.map_note is not None and "being built" in audit.map_note
    assert [r.domain for r in audit.strongest] == [b.source_domain for b in top[: coach.AUDIT_LINKS]]
    assert [r.domain for r in audit.weakest] == [b.source_domain for b in bottom]
    assert [r.flags for r in audit.weakest] == [(), ("nofollow",), ()]
    assert (audit.spam, audit.lost, audit.nofollow, audit.findings) == ((), (), (), ())


def test_audit_findings_read_the_map() -> None:
    many_spam = [ref(f"s{i}.com", spam=70) for i in range(2)] + [ref(f"c{i}.com") for i in range(8)]
    titles = [f.title for f in coach.audit_backlinks(make(), a_map(many_spam)).findings]
    assert any(t.startswith("Spam is a pattern") for t in titles)
    few_spam = [ref("s.com", spam=70)] + [ref(f"c{i}.com") for i in range(19)]
    titles = [f.title for f in coach.audit_backlinks(make(), a_map(few_spam)).findings]
    assert any(t.startswith("A few spam-flagged") for t in titles)
    reclaim = [ref("big.com", coach.RECLAIM_MIN_DR, status="lost"), ref("small.com", 39, status="lost")]
    findings = coach.audit_backlinks(make(), a_map(reclaim)).findings
    assert [f.title for f in findings] == ["1 strong lost link worth reclaiming"]
    assert "big.com" in findings[0].detail and "small.com" not in findings[0].detail
    nofollow = [ref(f"n{i}.com", kind="nofollow") for i in range(3)] + [ref("f.com")]
    assert any("Mostly nofollow" in f.title for f in coach.audit_backlinks(make(), a_map(nofollow)).findings)
    assert all(f.heuristic and f.sources for f in findings)


# --- content plan ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "start"),
    [
        ({"validated": False}, "comparison"),
        ({"referring": 10}, "integration"),
        ({"trust": 55}, "data"),
        ({}, "comparison"),
    ],
    ids=["weak traffic", "thin links", "weak trust", "healthy"],
)
def test_content_plan_starts_where_the_site_is_weakest(values: dict[str, Any], start: str) -> None:
    plan = coach.content_plan(make(**values))
    assert [i.kind for i in plan.items] == ["comparison", "integration", "data"]
    assert [i.count for i in plan.items] == [1, 2, 1]  # the CLI's four pages
    assert [i.kind for i in plan.items if i.start_here] == [start]
    assert all(i.heuristic and i.sources for i in plan.items)


def test_content_plan_lead_is_tuned_to_whether_traffic_is_known() -> None:
    assert "unknown" in coach.content_plan(make(traffic=None)).lead
    assert "12,345" in coach.content_plan(make(traffic=12_345)).lead


# --- fix ------------------------------------------------------------------------------------------


def test_fix_plan_turns_the_first_three_actions_into_30_60_90_days() -> None:
    lookup = make(true_dr=30, referring=10, trust=40, validated=False, confidence="low")
    plan = coach.fix_plan(lookup, 10)
    ranked = coach.ranked_actions(lookup)
    assert [p.title for p in plan.phases] == [a.title for a in ranked[:3]]
    assert [(p.start_day, p.end_day) for p in plan.phases] == [(1, 30), (31, 60), (61, 90)]
    assert plan.target == 40
    assert plan.lift == (sum(a.lift[0] for a in ranked[:3]), sum(a.lift[1] for a in ranked[:3]))


def test_fix_plan_pads_with_the_cli_fallback_when_fewer_actions_apply() -> None:
    plan = coach.fix_plan(make(), 5)
    assert [p.action_key for p in plan.phases] == ["partner", "protect", None]
    assert plan.phases[2].title == coach.FALLBACK_PHASES[2][0]
    assert plan.phases[2].lift == (0, 0)


def test_fix_plan_outlook_compares_the_goal_with_the_estimated_lift() -> None:
    lookup = make(referring=10, trust=40, validated=False, confidence="low")
    low, high = coach.fix_plan(lookup, 1).lift
    assert "within" in coach.fix_plan(lookup, low).outlook
    assert "only if" in coach.fix_plan(lookup, low + 1).outlook
    assert "only if" in coach.fix_plan(lookup, high).outlook
    assert "stretch" in coach.fix_plan(lookup, high + 1).outlook


def test_fix_plan_caps_the_target_at_100_and_tolerates_unknown_truedr() -> None:
    capped = coach.fix_plan(make(dr=98, true_dr=96), 10)
    assert capped.target == 100 and "capped" in capped.outlook
    assert coach.fix_plan(make(true_dr=None), 10).target is None


@pytest.mark.parametrize(("text", "goal"), [("+10", 10), ("7", 7), (12, 12), ("lots", 10), (None, 10)])
def test_parse_goal(text: Any, goal: int) -> None:
    assert coach.parse_goal(text) == goal


# --- track ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("week", "improving"), [(1, True), (0.5, True), (0, False), (-2, False), (None, False)]
)
def test_track_says_improving_only_when_truedr_rose_this_week(week: float | None, improving: bool) -> None:
    report = coach.track(make(true_dr_week=week, dr_week=1))
    assert report.improving is improving
    assert report.verdict.startswith("Improving") is improving


def test_track_observations_read_the_changes() -> None:
    notes = coach.track(
        make(true_dr_week=-1, dr_week=2, true_dr_month=3, traffic=1100, traffic_change=100)
    ).observations
    assert any("fell -1" in n for n in notes)
    assert any("DR rose this week but TrueDR did not" in n for n in notes)
    assert any("month TrueDR is up (+3)" in n for n in notes)
    assert any("+100 visits (+10%)" in n for n in notes)
    assert any("did not report" in n for n in coach.track(make()).observations)


# --- explain, boost -------------------------------------------------------------------------------


def test_explain_is_one_plain_paragraph_with_the_scores_gap_issue_and_first_action() -> None:
    lookup = make("acme.com", dr=40, true_dr=28, trust=55, validated=False)
    text = coach.explain(lookup)
    assert "\n" not in text
    assert "acme.com has a DR of 40, but its VerifiedDR TrueDR is 28." in text
    assert "-12 point gap" in text and "stronger than" in text
    assert coach.main_issue(lookup).text in text
    assert coach.ranked_actions(lookup)[0].title.lower() in text


def test_explain_without_a_gap_says_it_cannot_be_measured() -> None:
    text = coach.explain(make(true_dr=None))
    assert "TrueDR is unknown" in text and "cannot be measured" in text


def test_boost_is_the_top_four_actions_padded_with_a_partner_links_idea() -> None:
    full = coach.boost(make(referring=10, trust=40, validated=False, confidence="low"))
    assert len(full.steps) == coach.CAMPAIGN_SIZE and not full.padded
    short = coach.boost(make())
    assert short.steps == (
        "Contact one verified partner",
        "Protect the current authority base",
        coach.PARTNER_LINKS_IDEA,
    )
    assert short.padded and short.heuristic


# --- next -----------------------------------------------------------------------------------------


def candidate(
    domain: str,
    *,
    true_dr: int | None = 30,
    validated: bool | None = True,
    slug: str | None = None,
    reason: str | None = "same audience",
) -> ExchangeCandidate:
    return ExchangeCandidate(
        domain=domain,
        slug=slug or domain.replace(".", "-"),
        authority=Authority(dr=40, true_dr=true_dr, traffic_validated=validated),
        evidence=Evidence(traffic=5000),
        opportunity=Opportunity(type="guest_post", reason=reason),
    )


def test_next_is_the_top_action_with_the_best_eligible_partner() -> None:
    candidates = [
        candidate("not-validated.com", validated=False),
        candidate("too-weak.com", true_dr=coach.PARTNER_MIN_TRUE_DR - 1),
        candidate("unknown-truedr.com", true_dr=None),
        candidate("site.com"),  # the site itself
        candidate("contacted.com"),
        candidate("best.com", true_dr=coach.PARTNER_MIN_TRUE_DR),
        candidate("second.com"),
    ]
    step = coach.next_step(make("site.com"), candidates, contacted={"contacted-com"})
    assert step.action.key == "partner"
    assert step.partner is not None and step.partner.domain == "best.com"
    assert (step.partner.target, step.partner.angle, step.partner.reason) == (
        "best-com",
        "guest_post",
        "same audience",
    )
    assert coach.SRC_CANDIDATES in step.sources


def test_next_only_looks_at_the_first_few_eligible_candidates() -> None:
    first = [candidate(f"c{i}.com") for i in range(coach.PARTNER_CANDIDATE_LIMIT)]
    everyone = {c.domain for c in first}
    step = coach.next_step(make(), [*first, candidate("late.com")], contacted=everyone)
    assert step.partner is None and step.partner_note and "not contacted yet" in step.partner_note


def test_next_without_candidates_says_why() -> None:
    assert coach.next_step(make(), None).partner_note == "Exchange candidates were not loaded."
    assert coach.next_step(make(), []).partner is None


def test_next_reads_an_opportunity_kept_as_an_unparsed_dict() -> None:
    loose = Lookup.model_validate(
        {
            "domain": "loose.com",
            "slug": "loose-com",
            "authority": {"trueDr": 40, "trafficValidated": True},
            "opportunity": {"type": "resource_link", "reason": "fits"},
        }
    )
    pick = coach.best_partner("site.com", [loose])
    assert pick is not None and (pick.angle, pick.reason) == ("resource_link", "fits")


# --- null tolerance -------------------------------------------------------------------------------


def _every_advice(lookup: Lookup, trust_map: TrustMap | None = None) -> None:
    """Run every coach command; each must give advice, never raise."""
    analysis = coach.analyze(lookup)
    assert analysis.top_actions and analysis.issue.text
    assert coach.diagnose(lookup).reasons
    assert coach.ranked_actions(lookup)[0].key == "partner"
    assert coach.audit_backlinks(lookup, trust_map).risk
    assert coach.audit_backlinks(lookup, None, map_state="building").map_note
    assert coach.content_plan(lookup).items
    assert len(coach.fix_plan(lookup).phases) == 3
    assert coach.track(lookup).verdict
    assert lookup.domain in coach.explain(lookup)
    assert coach.boost(lookup).steps
    assert coach.next_step(lookup, []).action


def test_a_sparse_lookup_with_nulls_everywhere_still_gets_advice() -> None:
    bare = Lookup(domain="bare.com")
    _every_advice(bare, TrustMap(site=MapSite(domain="bare.com")))
    assert coach.main_issue(bare).kind == "aligned" and coach.main_issue(bare).caveat
    assert "unknown" in coach.explain(bare)
    nulled_sub_objects = Lookup.model_construct(domain="x.com", authority=None, evidence=None, changes=None)
    _every_advice(nulled_sub_objects)


def test_a_sandbox_lookup_nulled_by_the_nulls_fault_still_gets_advice() -> None:
    domain = next(iter(sandbox_data.DEMO_SITES))
    nulled = nullify(resources.lookup(domain, "http://127.0.0.1"))
    _every_advice(nulled, nullify(resources.trust_map(domain)))
    null_rows = a_map([ReferringDomain(domain="n.com")])
    audit = coach.audit_backlinks(nulled, null_rows)
    assert audit.live_follow == 1 and audit.flagged == () and audit.strongest == ()


optional_int = st.none() | st.integers(min_value=-5, max_value=120)


@settings(max_examples=150, deadline=None)
@given(
    dr=optional_int,
    true_dr=optional_int,
    trust=optional_int,
    validated=st.none() | st.booleans(),
    traffic=st.none() | st.integers(min_value=0, max_value=10**7),
    referring=st.none() | st.integers(min_value=0, max_value=10**5),
    confidence=st.none() | st.sampled_from(["high", "medium", "low", "unheard-of"]),
    week=st.none() | st.floats(min_value=-20, max_value=20, allow_nan=False),
)
def test_any_mix_of_known_and_unknown_values_gets_ranked_advice(**values: Any) -> None:
    week = values.pop("week")
    lookup = make(true_dr_week=week, dr_week=week, traffic_change=week, **values)
    _every_advice(lookup)
    ranked = coach.ranked_actions(lookup)
    assert [a.priority for a in ranked] == sorted((a.priority for a in ranked), reverse=True)
    assert len({a.key for a in ranked}) == len(ranked)


# --- frames and charts ----------------------------------------------------------------------------


def test_actions_frame_keeps_rank_order_and_names_the_data() -> None:
    lookup = make(referring=10, trust=40)
    frame = coach_frames.actions_frame(coach.ranked_actions(lookup), "site.com")
    assert list(frame["rank"]) == list(range(1, len(frame) + 1))
    assert list(frame["action"]) == [a.title for a in coach.ranked_actions(lookup)]
    assert frame["data"].notna().all() and frame["heuristic"].all()
    assert frame["cli"].str.contains("site.com").all()


def test_flagged_frame_keeps_unknown_values_missing() -> None:
    audit = coach.audit_backlinks(
        make(), a_map([ref("a.com", None, spam=None, status="lost"), ref("b.com", 5, spam=90)])
    )
    frame = coach_frames.flagged_frame(audit)
    assert list(frame["domain"]) == ["b.com", "a.com"]  # highest spam first, unknown last
    assert frame.loc[1, "dr"] is pd.NA and frame.loc[1, "spam_score"] is pd.NA
    assert list(frame["flags"]) == ["spam", "lost"]


def test_link_mix_counts_as_the_cli_map_summary() -> None:
    mix = coach_frames.link_mix_frame(a_map(AUDIT_ROWS)).set_index("kind")["domains"]
    audit = coach.audit_backlinks(make(), a_map(AUDIT_ROWS))
    assert mix["Live follow"] == audit.live_follow
    assert mix[coach_frames.SPAM_GROUP] == len(audit.spam)
    assert mix["Lost"] == len(audit.lost) and mix["Nofollow"] == len(audit.nofollow)


def test_charts_draw_data_and_say_when_there_is_none() -> None:
    lookup = make(referring=10, trust=40)
    figures = [
        coach_charts.scores_chart(coach.analyze(lookup)),
        coach_charts.impact_effort_chart(coach_frames.actions_frame(coach.ranked_actions(lookup), "s.com")),
        coach_charts.link_mix_chart(coach_frames.link_mix_frame(a_map(AUDIT_ROWS))),
        coach_charts.spam_chart(coach_frames.referring_frame(a_map(AUDIT_ROWS))),
        coach_charts.plan_chart(coach_frames.plan_frame(coach.fix_plan(lookup))),
    ]
    assert all(isinstance(f, go.Figure) and f.data for f in figures)
    empties = [
        coach_charts.scores_chart(coach.analyze(make(dr=None, true_dr=None))),
        coach_charts.link_mix_chart(coach_frames.link_mix_frame(None)),
        coach_charts.spam_chart(coach_frames.referring_frame(None)),
    ]
    assert all(not f.data and f.layout.annotations for f in empties)


# --- the evidence in plain words --------------------------------------------------------------------


def _cited(lookup: Lookup, trust_map: TrustMap | None) -> set[str]:
    """Every field any coach command cites for ``lookup`` (and its map, when there is one)."""
    audits = (
        coach.audit_backlinks(lookup, trust_map),
        coach.audit_backlinks(lookup, None, map_state="building"),
    )
    groups = [
        coach.analyze(lookup).sources,
        coach.analyze(lookup).issue.sources,
        *(r.sources for r in coach.diagnose(lookup).reasons),
        *(a.sources for a in coach.ranked_actions(lookup)),
        *(a.sources for a in audits),
        *(f.sources for a in audits for f in a.findings),
        *(i.sources for i in coach.content_plan(lookup).items),
        coach.content_plan(lookup).sources,
        coach.fix_plan(lookup).sources,
        coach.track(lookup).sources,
        coach.boost(lookup).sources,
        coach.next_step(lookup, [candidate("p.com")]).sources,
    ]
    return {source for group in groups for source in group}


def test_every_field_the_advice_cites_has_plain_words() -> None:
    declared = {value for name, value in vars(coach).items() if name.startswith("SRC_")}
    cited = _cited(make(referring=10, trust=40, validated=False, true_dr=30), a_map(AUDIT_ROWS))
    for domain in sandbox_data.DEMO_SITES:
        cited |= _cited(resources.lookup(domain, "http://127.0.0.1"), resources.trust_map(domain))
    cited |= {source for action in coach.ACTIONS for source in action.sources}
    assert cited <= declared, "a rule cites a field by a string of its own, not through sources.py"
    assert set(coach.SOURCE_WORDS) == declared
    for field, words in coach.SOURCE_WORDS.items():
        assert words and words != field and "." not in words and "`" not in words, field


def test_plain_sources_name_each_piece_of_evidence_once_in_a_sentence() -> None:
    sources = (coach.SRC_TRUE_DR, coach.SRC_DR, coach.SRC_TRUE_DR, coach.SRC_TRUST)
    assert coach.plain_sources(sources) == "TrueDR, DR and the trust score"
    assert coach.plain_sources((coach.SRC_MAP_STATUS,)) == coach.SOURCE_WORDS[coach.SRC_MAP_STATUS]
    assert coach.plain_sources(()) == ""


def test_actions_frame_says_in_words_what_each_action_rests_on() -> None:
    actions = coach.ranked_actions(make(referring=10, trust=40))
    frame = coach_frames.actions_frame(actions, "site.com")
    assert list(frame["based_on"]) == [coach.plain_sources(a.sources) for a in actions]
    assert not frame["based_on"].str.contains(r"lookup\.|map\.", regex=True).any()
