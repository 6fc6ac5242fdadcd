"""Where advice comes from: the API fields each piece of advice cites, and the same in plain words.

Every verdict, action and finding carries the fields it was read from (named as the service writes
them, so a reader can check the advice against the raw data). The page says what the advice rests on
in the words of ``SOURCE_WORDS`` ("Based on: TrueDR and the trust score"), and keeps the field names
for those who want them.
"""

from __future__ import annotations

from collections.abc import Iterable

SRC_DOMAIN = "lookup.domain"
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


#: Each cited field as a marketer would name the evidence (read after "Based on:").
SOURCE_WORDS: dict[str, str] = {
    SRC_DOMAIN: "the site's VerifiedDR listing",
    SRC_DR: "DR",
    SRC_TRUE_DR: "TrueDR",
    SRC_TRUST: "the trust score",
    SRC_CONFIDENCE: "how confident the service is in TrueDR",
    SRC_VALIDATED: "whether the site's traffic is validated",
    SRC_TRAFFIC: "monthly visits",
    SRC_REFERRING: "the number of referring domains",
    SRC_TOP_LINKS: "the strongest public backlinks",
    SRC_BOTTOM_LINKS: "the weakest public backlinks",
    SRC_DR_WEEK: "DR's weekly change",
    SRC_TRUE_DR_WEEK: "TrueDR's weekly change",
    SRC_DR_MONTH: "DR's monthly change",
    SRC_TRUE_DR_MONTH: "TrueDR's monthly change",
    SRC_TRAFFIC_CHANGE: "the change in visits",
    SRC_MAP_SPAM: "the spam scores of linking sites (Trust Map)",
    SRC_MAP_TYPE: "the share of followed and nofollow links (Trust Map)",
    SRC_MAP_STATUS: "the share of live and lost links (Trust Map)",
    SRC_MAP_DR: "the DR of linking sites (Trust Map)",
    SRC_CANDIDATES: "the service's link-exchange candidates",
    SRC_RULES: "the coach's fixed rules",
}


def describe_sources(sources: Iterable[str]) -> str:
    """Sources as one short line of field names (``lookup.authority.trustScore, ...``), each once."""
    return ", ".join(dict.fromkeys(sources))


def plain_sources(sources: Iterable[str]) -> str:
    """What the advice rests on in plain words, each once: "TrueDR, DR and the trust score".

    A field without words (none today; a unit test checks) is named as the service writes it rather
    than left out, so the advice never claims less evidence than it used.
    """
    words = list(dict.fromkeys(SOURCE_WORDS.get(source, source) for source in sources))
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
