"""What a report says, gathered from the history store only (making a report spends no API call).

``gather`` reads one own site's rows for one period and shapes them with the History and Market
pages' own pure frames (``analysis.figures``, ``analysis.market``), so a report's numbers are the numbers
the pages show. A number the store lacks stays missing (a failed read is never a zero); a section
with nothing recorded says so rather than disappearing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime

import pandas as pd

from analysis.figures import history_frames as frames
from analysis.figures import link_changes
from analysis.market.standing import compared_domains, complete_lines, watched_competitors
from analysis.shaping import over_period
from client.inputs import slug_for
from schema.history import KEYWORD_COLUMNS, LINK_COLUMNS, SPAM_RISK_FROM
from services.alerts.link_rules import Links, links_by_domain, newly_spam_risky, spam_threshold
from services.market import keyword_set_words, market_as_shown, team_ctr
from services.reports.next_steps import NextSteps, next_steps
from services.retention import weekly_points_note
from store.history import HistoryStore
from store.reports.period import Period
from store.watchlist import own_sites


class ReportProblem(ValueError):
    """A report that cannot be made; the message says why in one plain line (the page, the commands and
    the job say it)."""


class UnknownSite(ReportProblem):
    """The site is not one of the account's own sites."""


class EmptyPeriod(ReportProblem):
    """Nothing about the site is recorded in the period."""


#: The summary's figures, in the order a reader meets them.
SUMMARY_METRICS = dict(frames.TREND_METRICS)
#: How many links gained / lost / newly spam-risky a report lists (strongest first; it says of how many).
LINKS_LISTED = 10
#: How many tracked keywords the keyword table lists (best placed first; it says of how many, and where
#: every one is): at 5,000 keywords every one printed made a PDF of 331 pages in over 2 minutes.
KEYWORDS_LISTED = 25
#: How many keywords that entered or left the top 10 are named (the rest are counted).
NAMES_LISTED = 10
#: Other domains drawn beside the site in the visibility charts: the watched competitors first, then the
#: largest shares of voice on the last day (the Market page's rule, ``compared_domains``).
COMPETITORS_DRAWN = 4


@dataclass(frozen=True)
class SummaryRow:
    """One figure from the period's first recorded day to its last."""

    label: str
    first: float | None
    last: float | None

    @property
    def change(self) -> float | None:
        return None if self.first is None or self.last is None else self.last - self.first


@dataclass(frozen=True)
class LinkChurn:
    """The Trust Map sample's changes in the period: referring domains gained and lost between its first
    and last map (by their links being live), and the new spam-risky ones of each of its maps."""

    first_day: date | None
    last_day: date | None
    #: Each recorded day's totals (live and lost links, spam-risky domains) in the period.
    totals: pd.DataFrame
    gained: pd.DataFrame
    lost: pd.DataFrame
    #: As the alert rule finds them: each map of the period against the map before it (which may be
    #: older than the period), on the ``day`` of the map that first showed them in the period.
    new_spam_risky: pd.DataFrame
    #: Why some referring domains missing from the last map are not among those lost ("" when none is).
    not_counted: str = ""
    #: The spam score from which ``new_spam_risky`` counts a domain: the team's alert threshold, which
    #: may differ from the line the Trust Map's totals count from (``SPAM_RISK_FROM``), so both are named.
    spam_from: float = SPAM_RISK_FROM


@dataclass(frozen=True)
class Keywords:
    summary: pd.DataFrame
    rows: pd.DataFrame
    charted: list[str]
    entered_top_10: list[str]
    left_top_10: list[str]


@dataclass(frozen=True)
class Visibility:
    """The site's market in the period, as the Market page shows it for "Watched for <site>", all
    keywords: the compared domains' lines (0 on a day a domain was in none of the top 10s) and their
    figures on the last day."""

    lines: pd.DataFrame
    domains: list[str]
    latest: pd.DataFrame
    #: Which keywords were measured, in the Market page's terms ("all keywords watched for …").
    keyword_set: str = ""
    #: The pages' sentence when the period reaches top 10s kept one day a week ("" when all are daily).
    weekly_note: str = ""


@dataclass(frozen=True)
class ReportContent:
    site: str
    period: Period
    history: pd.DataFrame
    summary: list[SummaryRow]
    first_day: date | None
    last_day: date | None
    churn: LinkChurn
    keywords: Keywords
    visibility: Visibility
    alerts: pd.DataFrame
    notes: pd.DataFrame
    comment: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    #: What to go for next, as the period ended (None: not gathered).
    next: NextSteps | None = None


def _in(frame: pd.DataFrame, period: Period) -> pd.DataFrame:
    if frame.empty:
        return frame
    days = pd.to_datetime(frame["day"]).dt.date
    return frame[(days >= period.start) & (days <= period.end)].reset_index(drop=True)


def summary_rows(history: pd.DataFrame) -> list[SummaryRow]:
    """Each figure's first and last recorded value in the period (a figure never recorded: both None)."""
    rows = []
    for metric, label in SUMMARY_METRICS.items():
        ends = over_period(history, metric) if not history.empty else pd.DataFrame()
        first = float(ends["first"].iloc[0]) if len(ends) else None
        last = float(ends["last"].iloc[0]) if len(ends) else None
        rows.append(SummaryRow(label, first, last))
    return rows


def _strongest(links: pd.DataFrame) -> pd.DataFrame:
    """All of them, strongest first (the report lists the first ``LINKS_LISTED`` and says how many)."""
    ranked = links.assign(_dr=pd.to_numeric(links["dr"], errors="coerce"))
    return (
        ranked.sort_values(["_dr", "referring_domain"], ascending=[False, True], na_position="last")
        .drop(columns="_dr")
        .reset_index(drop=True)
    )


def new_spam_risky(
    store: HistoryStore, account: str, site: str, period: Period, spam_at: float
) -> pd.DataFrame:
    """The referring domains the ``spam_risky_link`` alert rule finds (with the team's threshold,
    ``spam_at``) in the period's Trust Maps of ``site``, each map against the one before it: the rows of
    the map that first showed each in the period, with its ``day``."""
    days = store.queries.trust_map_days(account, site)
    earlier = [day for day in days if day < period.start]
    compared = earlier[-1:] + [day for day in days if period.start <= day <= period.end]
    found: list[pd.DataFrame] = []
    seen: set[str] = set()
    previous: Links | None = None
    for day in compared:
        frame = store.queries.trust_map_links(account, site, day)
        links = links_by_domain(frame)
        if previous is not None:
            names = [name for name in newly_spam_risky(links, previous, spam_at) if name not in seen]
            seen.update(names)
            found.append(frame[frame["referring_domain"].isin(names)].assign(day=day))
        previous = links
    if not found:
        return frames.empty((*LINK_COLUMNS, "day"))
    return pd.concat(found, ignore_index=True)


def link_churn(store: HistoryStore, account: str, site: str, period: Period) -> LinkChurn:
    days = [day for day in store.queries.trust_map_days(account, site) if period.start <= day <= period.end]
    totals = _in(store.queries.trust_map_totals(account, site, period.start), period)
    spam_at = spam_threshold(store.alerts.alert_settings(account))
    spam = _strongest(new_spam_risky(store, account, site, period, spam_at))
    empty = frames.empty(LINK_COLUMNS)
    if len(days) < 2:
        first, last = (days[0], days[-1]) if days else (None, None)
        return LinkChurn(first, last, totals, empty, empty, spam, spam_from=spam_at)
    before = store.queries.trust_map_links(account, site, days[0])
    after = store.queries.trust_map_links(account, site, days[-1])
    skipped = link_changes.skipped_on(
        totals, days[-1]
    )  # rows of the last map that could not be used: unknown
    change = link_changes.live_change(before, after, skipped)
    return LinkChurn(
        days[0],
        days[-1],
        totals,
        _strongest(change.gained),
        _strongest(change.lost),
        spam,
        link_changes.unknown_words(change, days[-1], skipped),
        spam_from=spam_at,
    )


def _in_top_10(frame: pd.DataFrame) -> set[str]:
    ranked = pd.to_numeric(frame["position"], errors="coerce")
    return set(frame.loc[ranked <= frames.TOP_10, "keyword"].astype(str))


def with_period_change(summary: pd.DataFrame, firsts: pd.DataFrame) -> pd.DataFrame:
    """The keyword summary with its ``change`` over the period (each keyword's first recorded day in it,
    ``firsts``, to its last; up the ranking is positive; to or from a day without a position: none), as
    the report's summary counts change, in place of the History page's change since the day before."""
    first = pd.to_numeric(firsts.set_index("keyword")["position"], errors="coerce").astype("float64")
    before = first.reindex(summary["keyword"].astype(str)).to_numpy()
    now = pd.to_numeric(summary["position"], errors="coerce").astype("float64").to_numpy()
    return frames.whole_numbers(summary.assign(change=before - now), ["change"])


def keyword_section(store: HistoryStore, account: str, site: str, period: Period) -> Keywords:
    """The site's tracked keywords in the period: the summary (``over_period``'s change: first recorded
    day to last), the rows of the keywords charted, and which entered and left the top 10 between the
    period's first and last recorded days. Counted from the kept months (``store.keyword_months``) and
    each keyword's first row of the period: not the period's every row (150,000 a month at 5,000)."""
    slug = slug_for(site)
    counted = store.keyword_months.summary(account, slug, period.start, period.end)
    if counted.empty:
        return Keywords(frames.empty(("keyword",)), frames.empty(KEYWORD_COLUMNS), [], [], [])
    firsts = store.latest.first_rows(account, slug, period.start, period.end)
    summary = with_period_change(frames.ranked_summary(counted), firsts)
    first_day, last_day = firsts["day"].min(), pd.to_datetime(summary["latest_day"]).max()
    first = _in_top_10(firsts[firsts["day"] == first_day])
    last = _in_top_10(summary[pd.to_datetime(summary["latest_day"]) == last_day])
    charted = frames.chart_keywords(summary)
    rows = store.queries.keyword_days(account, slug, charted, period.start, period.end)
    return Keywords(
        summary, frames.keyword_rows(rows, charted), charted, sorted(last - first), sorted(first - last)
    )


def visibility_section(
    store: HistoryStore, account: str, site: str, period: Period, ctr: tuple[float, ...]
) -> Visibility:
    """The Market page's figures for the keywords watched for ``site`` (all groups) under the team's
    curve, comparing the site, the watched competitors and the largest other shares of voice."""
    market = market_as_shown(store, account, site, since=period.start, until=period.end, ctr=ctr)
    keyword_set = keyword_set_words(site)
    if market.empty:
        return Visibility(pd.DataFrame(), [], pd.DataFrame(), keyword_set)
    watched = store.watchlist.entries(account)
    competitors = watched_competitors((item.kind, item.subject, item.origin) for item in watched)
    drawn = 1 + COMPETITORS_DRAWN
    domains = compared_domains(market.figures, [site], competitors, limit=drawn)[:drawn]
    lines = complete_lines(market.figures, domains)
    last = lines[lines["day"] == lines["day"].max()]
    latest = last.sort_values(["share_of_voice", "domain"], ascending=[False, True], kind="stable")
    note = weekly_points_note(store, account, datetime.now(UTC).date(), period.start) or ""
    return Visibility(lines, domains, latest.reset_index(drop=True), keyword_set, note)


def period_alerts(store: HistoryStore, account: str, site: str, period: Period) -> pd.DataFrame:
    """The period's alerts about the site (or a keyword measured for it), open or acknowledged."""
    found = store.alerts.entries(account, state="all", since=period.start)
    if found.empty:
        return found
    days = pd.to_datetime(found["day"]).dt.date
    about = (
        found["subject"].astype(str).eq(site)
        | found["chart_subject"].astype(str).eq(site)
        | found["site"].astype(str).eq(site)
    )
    return found[(days <= period.end) & about].sort_values("day", kind="stable").reset_index(drop=True)


def gather(
    store: HistoryStore, account: str, site: str, period: Period, ctr: tuple[float, ...] | None = None
) -> ReportContent:
    """Everything the report of ``site`` for ``period`` shows; UnknownSite when ``site`` is not one of
    the account's own sites, EmptyPeriod when nothing about it is recorded in the period. ``ctr``: the
    curve the visibility is weighed with (default: the team's, as the Market page uses it)."""
    sites = own_sites(store.watchlist.entries(account))
    if site not in sites:
        yours = f"your sites are {', '.join(sites)}" if sites else "no site of yours is recorded yet"
        raise UnknownSite(f"{site} is not one of your sites in the history ({yours}).")
    history = _in(store.queries.domain_history(account, [site], period.start), period)
    churn = link_churn(store, account, site, period)
    keywords = keyword_section(store, account, site, period)
    if history.empty and keywords.rows.empty and churn.first_day is None:
        raise EmptyPeriod(f"Nothing about {site} is recorded in {period.words}.")
    days = sorted(pd.to_datetime(history["day"]).dt.date) if not history.empty else []
    curve = ctr or team_ctr().curve
    return ReportContent(
        site=site,
        period=period,
        history=history,
        summary=summary_rows(history),
        first_day=days[0] if days else None,
        last_day=days[-1] if days else None,
        churn=churn,
        keywords=keywords,
        visibility=visibility_section(store, account, site, period, curve),
        alerts=period_alerts(store, account, site, period),
        notes=store.notes.entries(account, period.start, period.end),
        comment=store.report_comments.report_comment(account, site, period),
        next=next_steps(store, account, site, period, curve),
    )
