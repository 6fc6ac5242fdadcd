"""Where advice comes from: the API fields each piece of advice cites, named as the service writes them.

Every verdict, action and finding carries the fields it was read from, so the page can say "From:"
under it and a reader can check the advice against the raw data.
"""

from __future__ import annotations

from collections.abc import Iterable

SRC_DR = "lookup.authority.dr"
SRC_TRUE_DR = "lookup.authority.trueDr"
SRC_TRUST = "lookup.authority.trustScore"
SRC_CONFIDENCE = "lookup.authority.confidence"
SRC_VALIDATED = "lookup.authority.trafficValidated"
SRC_TRAFFIC = "lookup.evidence.traffic"
SRC_REFERRING = "lookup.evidence.referringDomains"
SRC_TOP_LINKS = "lookup.evidence.topBacklinks"
SRC_BOTTOM_LINKS = "lookup.evidence.bottomBacklinks"
SRC_DR_WEEK = "lookup.changes.drWeeklyChange"
SRC_TRUE_DR_WEEK = "lookup.changes.trueDrWeeklyChange"
SRC_DR_MONTH = "lookup.changes.drMonthlyChange"
SRC_TRUE_DR_MONTH = "lookup.changes.trueDrMonthlyChange"
SRC_TRAFFIC_CHANGE = "lookup.changes.trafficChange"
SRC_MAP_SPAM = "map.domains[].spamScore"
SRC_MAP_TYPE = "map.domains[].linkType"
SRC_MAP_STATUS = "map.domains[].status"
SRC_MAP_DR = "map.domains[].dr"
SRC_CANDIDATES = "find.opportunities.candidates"
SRC_RULES = "coach rules"

GAP_SOURCES = (SRC_DR, SRC_TRUE_DR)
TRAFFIC_SOURCES = (SRC_VALIDATED, SRC_TRAFFIC)


def describe_sources(sources: Iterable[str]) -> str:
    """Sources as one short line for a caption (``lookup.authority.trustScore, ...``), each once."""
    return ", ".join(dict.fromkeys(sources))
