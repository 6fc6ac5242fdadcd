"""GET /monitor: what changed for each of the caller's sites this week (or today), and what to look at.

Weekly numbers are the site's profile, the same /lookup gives; daily ones are small deterministic
moves. A pending site has no ratings yet, so it gets one "waiting for review" alert and nothing else.
"""

from __future__ import annotations

from client.growth_models import MonitorAlert, MonitorBacklinks, MonitoredSite, SiteRecord, TrafficValidation
from client.models import Changes
from sandbox.data import site_profile
from sandbox.hashing import rng_for
from sandbox.resources import copied
from sandbox.sites import SiteStore, authority_of, record

#: A weekly TrueDR fall of this many points is critical.
TRUE_DR_DROP_CRITICAL = 2
#: TrueDR this far below DR means the DR is not backed by evidence (the coach's threshold too).
BIG_GAP = 10
#: Trust under this is weak (the coach's threshold too).
WEAK_TRUST = 60


def _alerts(rec: SiteRecord, changes: Changes, links: MonitorBacklinks, daily: bool) -> list[MonitorAlert]:
    """One site's alerts in rule order (the page sorts them by level)."""
    period = "today" if daily else "this week"
    alerts: list[MonitorAlert] = []
    if rec.status == "pending":
        alerts.append(
            MonitorAlert(level="info", type="pending", message="Waiting for review: ratings follow.")
        )
        return alerts
    drop = changes.true_dr_weekly_change
    if drop is not None and drop <= -TRUE_DR_DROP_CRITICAL:
        alerts.append(
            MonitorAlert(level="critical", type="truedr_drop", message=f"TrueDR fell {-drop:g} {period}.")
        )
    if changes.dr_weekly_change is not None and changes.dr_weekly_change < 0:
        alerts.append(
            MonitorAlert(
                level="warning", type="dr_drop", message=f"DR fell {-changes.dr_weekly_change:g} {period}."
            )
        )
    gained, lost = links.new_referring_domains or 0, links.lost_referring_domains or 0
    if lost > gained:
        alerts.append(
            MonitorAlert(
                level="warning",
                type="lost_domains",
                message=f"Lost {lost} referring domains and gained {gained} {period}.",
            )
        )
    if rec.dr is not None and rec.true_dr is not None and rec.true_dr - rec.dr <= -BIG_GAP:
        alerts.append(
            MonitorAlert(
                level="warning",
                type="truedr_gap",
                message=f"TrueDR is {rec.dr - rec.true_dr} points below DR: evidence does not back it.",
            )
        )
    if rec.trust_score is not None and rec.trust_score < WEAK_TRUST:
        alerts.append(
            MonitorAlert(
                level="warning",
                type="weak_trust",
                message=f"Trust score {rec.trust_score} is under {WEAK_TRUST}: risky links hold TrueDR down.",
            )
        )
    if rec.traffic_validated is False:
        alerts.append(
            MonitorAlert(
                level="info", type="traffic", message="Traffic is not validated, which holds TrueDR back."
            )
        )
    return alerts


def monitored(domain: str, store: SiteStore, daily: bool) -> MonitoredSite:
    """One site's entry: rating changes, referring domains won and lost, traffic validation, alerts."""
    rec = record(domain, store)
    r = rng_for("monitor", domain, "daily" if daily else "weekly")
    if rec.status == "pending":
        changes = Changes()
        links = MonitorBacklinks()
        validation = TrafficValidation()
    else:
        p = site_profile(domain)
        if daily:
            changes = Changes(
                dr_weekly_change=r.choice((0, 0, 0, 0, 1, -1)),
                true_dr_weekly_change=r.choice((0, 0, 0, 1, -1)),
                traffic_change=None if p.traffic is None else int(p.traffic * r.uniform(-0.03, 0.04)),
            )
            links = MonitorBacklinks(
                new_referring_domains=r.randint(0, 2),
                lost_referring_domains=r.randint(0, 1),
                new_backlinks=r.randint(0, 12),
                lost_backlinks=r.randint(0, 6),
            )
        else:
            changes = copied(Changes, p, "dr_weekly_change true_dr_weekly_change traffic_change")
            links = MonitorBacklinks(
                new_referring_domains=p.gained_domains,
                lost_referring_domains=p.lost_domains,
                new_backlinks=p.gained_domains * r.randint(1, 6),
                lost_backlinks=p.lost_domains * r.randint(1, 4),
            )
        validation = TrafficValidation(
            validated=p.traffic_validated, traffic=p.traffic, traffic_change=changes.traffic_change
        )
    alerts = _alerts(rec, changes, links, daily)
    worst = next((a.message for a in alerts if a.level == "critical"), None)
    summary = worst or (f"{len(alerts)} thing(s) to look at." if alerts else "Nothing needs attention.")
    return MonitoredSite(
        domain=domain,
        slug=rec.slug,
        authority=authority_of(rec),
        changes=changes,
        backlinks=links,
        traffic_validation=validation,
        alerts=alerts,
        summary=f"{domain}: {summary}",
    )
