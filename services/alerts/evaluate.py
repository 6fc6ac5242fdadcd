"""Evaluating the alert rules for an account over a range of days, from the store alone (no API).

``evaluate_alerts`` reads the account's rule settings, watchlist, recorded history, Trust Map samples and
sent exchange proposals once, runs the pure rules (``services.alerts.rules``,
``services.alerts.link_rules``) on each day of the range, and records what they find in one transaction
(``HistoryStore.alerts.record_findings``): a day evaluated again finds the same fingerprints and records
nothing new.

Which subjects each rule watches: the domain rules every watched domain; the keyword rules every
tracked keyword and the watched keywords whose report recorded the asking site's position; the Trust
Map rules (new spam-risky link, strong link lost) and the partner rule the account's OWN sites only,
since a spam domain or a lost link pointing at a competitor asks nothing of the team; the market rules
each own site's keyword groups (visibility) and the watched competitors in the watched keywords' top 10s.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

import pandas as pd

from analysis.figures.link_changes import skipped_on
from analysis.market import group_names
from services.alerts import market_rules
from services.alerts.link_rules import Partner, links_by_domain, partner_findings, partners_from_audit
from services.alerts.link_rules import trust_map_findings as link_findings
from services.alerts.rules import WEEK, WEEK_GAP, domain_findings, keyword_findings, threshold_of
from services.market import team_ctr
from store.alerts.catalog import Finding, RuleSetting
from store.alerts.state import EvaluationReport
from store.history import HistoryStore
from store.watchlist import WatchItem, check_account, own_sites, site_names

#: How far before the first evaluated day the history is read (a week's comparison and its edge check,
#: and a "previous snapshot" after a pause of the job of up to a month).
LOOK_BACK = timedelta(days=35)
MAX_DAYS = 366
TRUST_MAP_RULES = ("spam_risky_link", "strong_link_lost", "partner_stopped_linking")


def _days(as_of: date, days: int) -> list[date]:
    return [as_of - timedelta(days=back) for back in range(days - 1, -1, -1)]


def evaluate_alerts(
    store: HistoryStore,
    account: str,
    *,
    as_of: date | None = None,
    days: int = 1,
    channels: Sequence[str] = (),
) -> EvaluationReport:
    """Run the account's enabled rules on each of ``days`` days ending ``as_of`` and record the findings."""
    check_account(account)
    if not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise ValueError(f"days is a whole number from 1 to {MAX_DAYS}")
    end = as_of if as_of is not None else store.alerts.latest_snapshot_day(account)
    if end is None:
        return store.alerts.record_findings(account, [], channels)
    findings = find(store, account, _days(end, days))
    return store.alerts.record_findings(account, findings, channels)


def find(store: HistoryStore, account: str, days: Sequence[date]) -> list[Finding]:
    """What the enabled rules find on ``days`` (oldest first) in the account's history."""
    settings = store.alerts.alert_settings(account)
    if not days or all(threshold_of(settings, rule) is None for rule in settings):
        return []
    since = days[0] - LOOK_BACK - WEEK - WEEK_GAP
    watched = store.watchlist.entries(account)
    domains = sorted(item.subject for item in watched if item.kind == "domain")
    own = own_sites(watched)
    domain_frame = store.queries.domain_history(account, domains, since=since)
    keyword_frame = store.queries.keyword_history(account, None, since=since)
    maps = _TrustMaps(store, account, own, since, settings)
    partners = _partners(store, account, own, settings)
    found = domain_findings(domain_frame, days, settings)
    found += _market_findings(store, account, watched, days, settings, since)
    found += keyword_findings(keyword_frame, days, settings, site_names(own))
    for day in days:
        found += maps.findings(day, partners)
    return found


def _market_findings(
    store: HistoryStore,
    account: str,
    watched: Sequence[WatchItem],
    days: Sequence[date],
    settings: dict[str, RuleSetting],
    since: date,
) -> list[Finding]:
    """The market view's rules on the watched keywords' top 10s (``services.alerts.market_rules``)."""
    visibility_on = threshold_of(settings, "visibility_fell") is not None
    competitors_on = threshold_of(settings, "competitor_top3") is not None
    if not (visibility_on or competitors_on):
        return []
    serps = store.queries.serp_history(account, since=since)
    if serps.empty:
        return []
    own = own_sites(watched)
    found: list[Finding] = []
    if competitors_on:
        competitors = [item.subject for item in watched if item.kind == "domain" and item.subject not in own]
        found += market_rules.competitor_findings(serps, competitors, days, settings)
    if visibility_on:
        tags, brands = store.groups.keyword_tags(account), store.groups.brand_terms(account)
        ctr = team_ctr().curve  # a curve that cannot be used: the app says so; alerts keep the default
        for site in own:
            series = market_rules.visibility_series(
                serps[serps["site"] == site], site, group_names(tags), tags, brands, ctr
            )
            found += market_rules.visibility_findings(site, series, days, settings, ctr)
    return found


def _partners(
    store: HistoryStore, account: str, own_sites: Sequence[str], settings: dict[str, RuleSetting]
) -> list[Partner]:
    if threshold_of(settings, "partner_stopped_linking") is None:
        return []
    events = store.audit.events(account, operation="approve_exchange", outcome="sent")
    # A proposal "from" a site that is not (or no longer) an own site is checked against all of them.
    return [
        partner if partner.from_site in own_sites else Partner(partner.target, partner.sent)
        for partner in partners_from_audit(events)
    ]


class _TrustMaps:
    """The own sites' Trust Map samples, each read once, and the rules on them for a day."""

    def __init__(
        self,
        store: HistoryStore,
        account: str,
        sites: Sequence[str],
        since: date,
        settings: dict[str, RuleSetting],
    ) -> None:
        self.store, self.account, self.settings = store, account, settings
        wanted = any(threshold_of(settings, rule) is not None for rule in TRUST_MAP_RULES)
        self.days = (
            {
                site: [day for day in store.queries.trust_map_days(account, site) if day >= since]
                for site in sites
            }
            if wanted
            else {}
        )
        self._links: dict[tuple[str, date], dict[str, dict[str, object]]] = {}
        self._since = since
        self._totals: dict[str, pd.DataFrame] = {}

    def _skipped(self, site: str, day: date) -> int:
        """How many rows of the site's map of ``day`` could not be used (its totals read once per site)."""
        if site not in self._totals:
            self._totals[site] = self.store.queries.trust_map_totals(self.account, site, self._since)
        return skipped_on(self._totals[site], day)

    def _sample(self, site: str, day: date) -> dict[str, dict[str, object]]:
        if (site, day) not in self._links:
            self._links[(site, day)] = links_by_domain(
                self.store.queries.trust_map_links(self.account, site, day)
            )
        return self._links[(site, day)]

    def findings(self, day: date, partners: Sequence[Partner]) -> list[Finding]:
        found: list[Finding] = []
        for site, days in self.days.items():
            if day not in days:
                continue
            earlier = [d for d in days if d < day]
            previous_day = earlier[-1] if earlier else None
            links = self._sample(site, day)
            previous = self._sample(site, previous_day) if previous_day is not None else None
            found += link_findings(site, day, links, previous_day, previous, self.settings)
            found += partner_findings(
                site, day, links, previous_day, previous, partners, self.settings, self._skipped(site, day)
            )
        return found
