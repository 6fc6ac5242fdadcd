"""The numbers the coach's rules judge by: the vdr CLI's thresholds (for parity) and the app's own.

One place for every cut-off, so a rule, a chart's reference line and a tab's help text all quote the
same number, and a change of rule is one edit.
"""

from __future__ import annotations

from schema.history import SPAM_RISK_FROM

# --- thresholds: the CLI's, for parity ---------------------------------------------------------

#: A gap this negative or worse means DR clearly outruns the evidence (CLI: "inflated" branches).
INFLATED_GAP = -10
#: Monthly visits under this are too few to back an authority score (CLI: weak traffic).
MIN_TRAFFIC = 1_000
#: Trust under this is weak: it triggers the backlink clean-up action and the audit's risk (CLI).
WEAK_TRUST = 60
#: Trust under this is low enough to be the main issue on its own (CLI).
LOW_TRUST = 50
#: Under this many referring domains the base is thin and directory links still help (CLI).
THIN_REFERRING_DOMAINS = 50
#: Confidence level at which TrueDR is considered firm; anything else earns the confidence action (CLI).
FIRM_CONFIDENCE = "high"
#: A referring domain with a spam score at or above this is flagged as spam (CLI's map legend): the one
#: spam-risky line the history, the pages and the churn draw too.
SPAM_FLAG = SPAM_RISK_FROM
#: Analyze shows this many actions (CLI).
TOP_ACTIONS = 3
#: Boost turns this many actions into a campaign, padding with a partner-links idea (CLI).
CAMPAIGN_SIZE = 4
#: The audit lists this many strongest and weakest backlinks (CLI).
AUDIT_LINKS = 5
#: The fix plan spans three 30-day phases (CLI: days 1–30, 31–60, 61–90).
PHASE_DAYS = 30
#: The fix plan's default goal in TrueDR points (CLI: --goal +10).
DEFAULT_GOAL = 10
#: Exchange candidates for "next" are traffic-validated with at least this TrueDR (CLI's request).
PARTNER_MIN_TRUE_DR = 20
#: "next" considers only the first few candidates, as the CLI asks the service for (CLI: limit 5).
PARTNER_CANDIDATE_LIMIT = 5

#: Priority = impact + effort bonus + confidence bonus (CLI): cheap, sure actions rise.
EFFORT_BONUS: dict[str, int] = {"low": 3, "medium": 1, "high": 0}
#: Extra priority for an action whose effect the coach is sure of (CLI).
HIGH_CONFIDENCE_BONUS = 2

# --- thresholds beyond the CLI (the app's own heuristics) ---------------------------------------

#: A lost referring domain at least this strong is worth an email to win the link back (heuristic).
RECLAIM_MIN_DR = 40
#: When more than this share of the mapped domains is nofollow, most links pass little authority.
NOFOLLOW_HEAVY_SHARE = 0.5
#: When at least this share of the mapped domains is spam-flagged, the spam is a pattern, not noise.
SPAM_PATTERN_SHARE = 0.1
