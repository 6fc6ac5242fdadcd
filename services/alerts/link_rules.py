"""The alert rules on Trust Maps and link exchanges: two days' link samples in, findings out (pure).

A Trust Map is a sample of a domain's referring domains; these rules compare the sample of one day with
the sample of the Trust Map before it (``HistoryStore.queries.trust_map_links`` frames), so a link is "new" or
"lost" relative to the previous map, and nothing fires for a domain's first map.

- ``spam_risky_link``: a referring domain with a spam score at or above the threshold that the previous
  sample did not have (or had below the threshold); told once per site and referring domain, since a
  low-rated domain drops out of a sample and back in.
- ``strong_link_lost``: a dofollow link from a domain with DR at or above the threshold, live in the
  previous sample and lost in this one.
- ``partner_stopped_linking``: a site this account sent an exchange proposal to (the audit log's sent
  ``approve_exchange`` rows) that linked to one of its own sites on or after the day it was sent, live
  in the previous sample, and is now lost or gone from the sample (not "gone" on a day some rows of the
  map could not be used: the partner may be one of them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import pandas as pd

from analysis.wording import is_missing, say_day
from services.alerts.rules import threshold_of
from store.alerts.catalog import RULES, Finding, RuleSetting

Links = dict[str, dict[str, object]]
_FROM_SITE = re.compile(r"(?:^|,\s*)from\s+(\S+)\s*$")


@dataclass(frozen=True)
class Partner:
    """A sent exchange proposal: to ``target`` (a domain or a site id like ``partner-io``), on ``sent``
    (a day, UTC), from the own site ``from_site`` when the audit row names it."""

    target: str
    sent: date
    from_site: str | None = None

    def is_domain(self, referring_domain: str) -> bool:
        target = self.target.strip().lower()
        return referring_domain == target or referring_domain.replace(".", "-") == target.replace(".", "-")


def partners_from_audit(events: pd.DataFrame) -> list[Partner]:
    """The partners of an ``AuditLog.events`` frame's sent ``approve_exchange`` rows (oldest proposal
    first)."""
    found: dict[str, Partner] = {}
    rows = events[(events["operation"] == "approve_exchange") & (events["outcome"] == "sent")]
    for row in rows.sort_values("at").itertuples():
        if not row.target:
            continue
        match = _FROM_SITE.search(str(row.detail or ""))
        partner = Partner(
            str(row.target).strip().lower(), row.at.date(), match.group(1).lower() if match else None
        )
        found.setdefault(partner.target, partner)  # the first proposal is when the partnership began
    return list(found.values())


def links_by_domain(frame: pd.DataFrame) -> Links:
    """A ``trust_map_links`` frame as referring domain -> its row (plain Python values)."""
    links: Links = {}
    for record in frame.to_dict("records"):
        links[str(record["referring_domain"])] = {
            name: (None if is_missing(value) else value) for name, value in record.items()
        }
    return links


def _score(link: Mapping[str, object] | None) -> float | None:
    value = None if link is None else link.get("spam_score")
    return None if value is None else float(value)  # type: ignore[arg-type]  # a stored number (the frame's column)


def _dr(link: Mapping[str, object]) -> int | None:
    value = link.get("dr")
    return None if value is None else int(value)  # type: ignore[call-overload]  # a stored number (the frame's column)


def spam_threshold(settings: Mapping[str, RuleSetting]) -> float:
    """The spam score from which a referring domain counts as spam-risky: the team's setting of the
    ``spam_risky_link`` rule, or the rule's default while the rule is off."""
    chosen = threshold_of(settings, "spam_risky_link")
    default = RULES["spam_risky_link"].default_threshold
    return chosen if chosen is not None else float(default if default is not None else 0.0)


def newly_spam_risky(links: Links, previous_links: Links, spam_at: float) -> list[str]:
    """The referring domains of a map (``links``) with a spam score of at least ``spam_at`` that the map
    before it (``previous_links``) did not have at that score: not in it, or below it. The one meaning of
    "new spam-risky" that the alert and the report's table share."""
    found = []
    for name, link in sorted(links.items()):
        score, earlier = _score(link), _score(previous_links.get(name))
        if score is not None and score >= spam_at and (earlier is None or earlier < spam_at):
            found.append(name)
    return found


def trust_map_findings(
    domain: str,
    day: date,
    links: Links,
    previous_day: date | None,
    previous_links: Links | None,
    settings: Mapping[str, RuleSetting],
) -> list[Finding]:
    """New spam-risky referring domains and lost strong dofollow links in ``domain``'s map of ``day``."""
    if previous_day is None or previous_links is None:
        return []
    found: list[Finding] = []
    spam_at = threshold_of(settings, "spam_risky_link")
    if spam_at is not None:
        for name in newly_spam_risky(links, previous_links, spam_at):
            score, earlier = _score(links[name]), _score(previous_links.get(name))
            before = "not in the sample" if name not in previous_links else f"spam score {earlier or 0:g}"
            found.append(
                _link_finding(
                    "spam_risky_link",
                    name,
                    (domain, domain),
                    (previous_day, day),
                    title=f"{domain}: new spam-risky link from {name} (spam score {score:g})",
                    before=before,
                    after=f"spam score {score:g}",
                    key=name,
                    once=True,
                )
            )
    strong_at = threshold_of(settings, "strong_link_lost")
    if strong_at is not None:
        for name, earlier_link in sorted(previous_links.items()):
            link_now = links.get(name)
            dr = _dr(earlier_link)
            if (
                link_now is None
                or earlier_link.get("status") != "live"
                or link_now.get("status") != "lost"
                or earlier_link.get("link_type") != "dofollow"
                or dr is None
                or dr < strong_at
            ):
                continue
            found.append(
                _link_finding(
                    "strong_link_lost",
                    name,
                    (domain, domain),
                    (previous_day, day),
                    title=f"{domain} lost a dofollow link from {name} (DR {dr})",
                    before="live",
                    after="lost",
                    detail=f"Live on {say_day(previous_day)}, lost on {say_day(day)}.",
                    key=name,
                )
            )
    return found


def partner_findings(
    site: str,
    day: date,
    links: Links,
    previous_day: date | None,
    previous_links: Links | None,
    partners: Sequence[Partner],
    settings: Mapping[str, RuleSetting],
    skipped: int = 0,
) -> list[Finding]:
    """Partners that linked to the own ``site`` (live in its previous map, made on or after the proposal
    was sent) and in its map of ``day`` are lost or gone. When ``skipped`` rows of the map of ``day``
    could not be used, a partner missing from it is unknown (it may be one of them), never gone."""
    if (
        threshold_of(settings, "partner_stopped_linking") is None
        or previous_day is None
        or not previous_links
    ):
        return []
    found: list[Finding] = []
    for partner in partners:
        if partner.sent > previous_day or (partner.from_site is not None and partner.from_site != site):
            continue
        for name in _matching(previous_links, partner):
            if previous_links[name].get("status") != "live":
                continue
            now = links.get(name)
            if (now is not None and now.get("status") != "lost") or (now is None and skipped):
                continue
            after = "lost" if now is not None else "gone from the Trust Map"
            found.append(
                _link_finding(
                    "partner_stopped_linking",
                    name,
                    (name, site),
                    (previous_day, day),
                    title=f"{name} no longer links to {site} (exchange proposed on {say_day(partner.sent)})",
                    before="live",
                    after=after,
                    detail=f"Linked on {say_day(previous_day)}; {after} on {say_day(day)}.",
                    key=site,
                )
            )
    return found


def _link_finding(
    rule: str, name: str, about: tuple[str, str], days: tuple[date | None, date], **words: Any
) -> Finding:
    """A finding about the referring domain ``name`` in a Trust Map: ``about`` is (its subject, the site
    whose map its link opens), ``days`` the earlier map's day (the evidence) and this one's."""
    subject, site = about
    since, day = days
    return Finding(
        rule=rule,
        subject=subject,
        day=day,
        chart="trust_map",
        chart_subject=site,
        since=since,
        referring_domain=name,
        **words,
    )


def _matching(links: Iterable[str], partner: Partner) -> list[str]:
    return [name for name in links if partner.is_domain(name)]
