"""The weekly digest's content: the period's alerts and biggest moves, as HTML and as plain text.

Pure: history and alert frames in, strings out (``services.jobs.digest`` reads the store and sends). Every
text that came from the service (domains, keywords, alert titles) is escaped, in the HTML with
``html.escape`` and in links by ``urlencode``; the HTML is simple tables with inline styles, which is
what mail programs render. A move is measured from the last snapshot before the period (or the
period's first one) to the period's last, and only a real change is a move: DR or TrueDR by
``MIN_POINTS`` or more, referring domains by ``MIN_REFERRING_PERCENT`` or more, a keyword's position by
any place (or into or out of the results). A value the service did not give on one side is unknown,
not a change.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from html import escape
from typing import Any

import pandas as pd

from analysis.links import alert_url, chart_url
from services.alerts.rules import missing

PRODUCT = "Authority Dashboard"
ALERTS_PATH = "alerts"
MOVES_SHOWN = 10
ALERTS_SHOWN = 50
#: A keyword not in the results counts as this position when ranking keyword moves.
UNRANKED = 101
#: The smallest DR or TrueDR change the digest calls a move: ratings are whole numbers, so a point
#: either way is often rounding (the History page rings moves from the same size).
MIN_POINTS = 2
#: The smallest change of referring domains the digest calls a move, in percent of the count before:
#: a big site gains and loses a few dozen every week without anything happening.
MIN_REFERRING_PERCENT = 1.0

NO_DOMAIN_MOVED = (
    f"No watched domain moved: DR and TrueDR by less than {MIN_POINTS} points, referring domains by "
    f"less than {MIN_REFERRING_PERCENT:g} %."
)

NO_NOTES = "No note and no Google update in this period."
CELL = "padding:4px 10px;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top"
HEAD = CELL + ";background:#f3f4f6;font-weight:600"
TABLE = "border-collapse:collapse;font-size:14px;margin:6px 0 18px 0"
BODY = "font-family:Arial,Helvetica,sans-serif;color:#111827;line-height:1.4;max-width:820px"


@dataclass(frozen=True)
class DomainMove:
    domain: str
    dr: tuple[int | None, int | None]
    true_dr: tuple[int | None, int | None]
    referring_domains: tuple[int | None, int | None]

    @property
    def points(self) -> int:
        """The larger DR or TrueDR change, in points (either way)."""
        return max(abs(_change(self.dr) or 0), abs(_change(self.true_dr) or 0))

    @property
    def referring_percent(self) -> float:
        before, after = self.referring_domains
        if before is None or after is None or before == 0:
            return 0.0
        return (after - before) / before * 100

    @property
    def is_real(self) -> bool:
        """Whether anything moved enough to say: DR or TrueDR by ``MIN_POINTS``, referring domains by
        ``MIN_REFERRING_PERCENT`` (or from none to some); unknown on either side never counts."""
        referring = _change(self.referring_domains)
        return (
            self.points >= MIN_POINTS
            or abs(self.referring_percent) >= MIN_REFERRING_PERCENT
            or (self.referring_domains[0] == 0 and bool(referring))
        )


@dataclass(frozen=True)
class KeywordMove:
    keyword: str
    site: str
    before: int | None
    after: int | None

    @property
    def size(self) -> int:
        return abs((self.after or UNRANKED) - (self.before or UNRANKED))

    @property
    def words(self) -> str:
        """ "up 6", "down 3", "entered the results", "left the results"."""
        if self.before is None:
            return "entered the results"
        if self.after is None:
            return "left the results"
        change = self.before - self.after
        return f"up {change}" if change > 0 else f"down {-change}"


@dataclass(frozen=True)
class AccountDigest:
    """One account's part: ``label`` names it for people (its own sites), never by its key."""

    label: str
    alerts: pd.DataFrame
    domain_moves: list[DomainMove] = field(default_factory=list)
    keyword_moves: list[KeywordMove] = field(default_factory=list)
    #: The period's notes on the charts (editors' and Google's updates), as (when, what) in words.
    notes: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Digest:
    start: date
    end: date
    dashboard_url: str
    accounts: list[AccountDigest]

    @property
    def alert_count(self) -> int:
        return sum(len(account.alerts) for account in self.accounts)

    @property
    def subject(self) -> str:
        """E.g. "Authority Dashboard: weekly digest, 16–22 Nov 2026 — 3 alerts"."""
        days = (self.end - self.start).days + 1
        kind = "weekly digest" if days == 7 else f"{days}-day digest"
        alerts = count_words(self.alert_count, "alert")
        return f"{PRODUCT}: {kind}, {period_words(self.start, self.end)} — {alerts}"


def period(as_of: date, days: int) -> tuple[date, date]:
    """The ``days`` days ending with ``as_of``."""
    return as_of - timedelta(days=max(days, 1) - 1), as_of


def period_words(start: date, end: date) -> str:
    """16–22 Nov 2026, 28 Nov – 4 Dec 2026, 28 Dec 2026 – 3 Jan 2027."""
    if start == end:
        return f"{end.day} {end:%b %Y}"
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}–{end.day} {end:%b %Y}"
    if start.year == end.year:
        return f"{start.day} {start:%b} – {end.day} {end:%b %Y}"
    return f"{start.day} {start:%b %Y} – {end.day} {end:%b %Y}"


def count_words(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}" if number else f"no {noun}s"


def _value(value: Any) -> int | None:
    if missing(value):
        return None
    return int(value)


def _change(pair: tuple[int | None, int | None]) -> int | None:
    before, after = pair
    return None if before is None or after is None else after - before


def _period_ends(
    history: pd.DataFrame, by: str | list[str], start: date, end: date
) -> Iterator[tuple[Any, pd.Series, pd.Series]]:
    """Each subject (grouped ``by``, in order) with the rows its move is measured between: the last
    before ``start`` (else the first) and the last up to ``end``; subjects with only one day are left out."""
    frame = history[history["day"].dt.date <= end].sort_values("day") if len(history) else history
    for subject, rows in frame.groupby(by, sort=True):
        before = rows[rows["day"].dt.date < start]
        baseline = before.iloc[-1] if len(before) else rows.iloc[0]
        latest = rows.iloc[-1]
        if baseline["day"] < latest["day"]:
            yield subject, baseline, latest


def domain_moves(history: pd.DataFrame, start: date, end: date, limit: int = MOVES_SHOWN) -> list[DomainMove]:
    """The watched domains whose DR, TrueDR or referring domains really moved (``DomainMove.is_real``),
    biggest first: one whose numbers held (or only one side of which is known) is not listed."""
    moves: list[DomainMove] = []
    for domain, first, last in _period_ends(history, "domain", start, end):
        move = DomainMove(
            str(domain),
            *((_value(first[name]), _value(last[name])) for name in ("dr", "true_dr", "referring_domains")),
        )
        if move.is_real:
            moves.append(move)
    moves.sort(key=lambda m: (-m.points, -abs(m.referring_percent), m.domain))
    return moves[:limit]


def keyword_series(history: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """Keyword rows with each site named by its domain (``names``: slug → domain) and one series per
    site and keyword: where a site both tracks a keyword (rows under its slug) and has it watched (rows
    under its domain), the tracked rows are kept, since they know positions past the top 10. Mixing
    the two would measure a move from one series to the other."""
    if history.empty:
        return history
    tracked = history["site"].isin(list(names))
    named = history.assign(site=history["site"].map(lambda site: names.get(site, site)))
    both = set(zip(named.loc[tracked, "site"], named.loc[tracked, "keyword"], strict=True))
    pairs = pd.Series(list(zip(named["site"], named["keyword"], strict=True)), index=named.index)
    return named[tracked | ~pairs.isin(both)].reset_index(drop=True)


def keyword_moves(
    history: pd.DataFrame, start: date, end: date, limit: int = MOVES_SHOWN
) -> list[KeywordMove]:
    """The keywords whose position changed over the period, biggest move first; each series (a site's
    tracked keyword, a keyword watched for a site) on its own, so two series of one keyword are never
    mixed into a move neither of them made."""
    moves: list[KeywordMove] = []
    for (site, keyword), first, last in _period_ends(history, ["site", "keyword"], start, end):
        move = KeywordMove(str(keyword), str(site), _value(first["position"]), _value(last["position"]))
        if move.before != move.after:
            moves.append(move)
    moves.sort(key=lambda m: (-m.size, m.keyword, m.site))
    return moves[:limit]


# --- HTML -------------------------------------------------------------------------------------


def pair_text(pair: tuple[int | None, int | None], *, percent: bool = False) -> str:
    before, after = pair
    if before is None and after is None:
        return "—"
    if before == after:
        return f"{number_text(after)}, no change"
    text = f"{number_text(before)} → {number_text(after)}"
    change = _change(pair)
    if change:
        text += f" ({change:+,}" + (f", {change / before * 100:+.1f} %" if percent and before else "") + ")"
    return text


def number_text(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def day_text(value: Any) -> str:
    return pd.Timestamp(value).date().isoformat()


def digest_alert_url(dashboard: str, alert: Any) -> str:
    """The chart an alert row is about (the dashboard for a chart this version does not know)."""
    try:
        return alert_url(dashboard, alert)
    except ValueError:
        return dashboard


def _link(url: str, text: str) -> str:
    return f'<a href="{escape(url)}" style="color:#1d4ed8">{escape(text)}</a>'


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table of cells that are already HTML (escaped by the caller)."""
    head = "".join(f'<th style="{HEAD}">{escape(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f'<td style="{CELL}">{c}</td>' for c in row) + "</tr>" for row in rows)
    return f'<table style="{TABLE}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def site_words(site: str) -> str:
    return site if site else "watched keyword"


def note_lines(markers: pd.DataFrame) -> list[tuple[str, str]]:
    """The period's markers (``analysis.market.markers``) as (when, what) in words, oldest first."""
    lines = []
    for row in markers.sort_values("day", kind="stable").itertuples(index=False):
        end = None if row.end_day is None or pd.isna(row.end_day) else row.end_day
        when = day_text(row.day) + (f" – {day_text(end)}" if end is not None and end != row.day else "")
        about = [
            str(value)
            for value in (row.subject, row.keyword_group)
            if value is not None and not pd.isna(value)
        ]
        lines.append((when, str(row.text) + (f" ({', '.join(about)})" if about else "")))
    return lines


def _html_section(
    heading: str, headers: Sequence[str], rows: Sequence[tuple[str, ...]], nothing: str
) -> list[str]:
    """A heading and its table, or ``nothing`` in words when there are no rows."""
    table = _table(headers, rows) if rows else f"<p>{nothing}</p>"
    return [f'<h3 style="font-size:15px;margin:12px 0 4px 0">{escape(heading)}</h3>', table]


def _account_html(account: AccountDigest, dashboard: str) -> str:
    parts = [f'<h2 style="font-size:18px;margin:24px 0 6px 0">{escape(account.label)}</h2>']
    alerts = account.alerts.head(ALERTS_SHOWN)
    rows = [
        (
            escape(day_text(alert.day)),
            _link(digest_alert_url(dashboard, alert), alert.title),
            escape(alert.before if alert.before is not None else "—"),
            escape(alert.after if alert.after is not None else "—"),
        )
        for alert in alerts.itertuples()
    ]
    heading = f"Alerts ({len(account.alerts)})"
    parts += _html_section(
        heading, ("Day", "What happened", "Before", "After"), rows, "No alerts in this period."
    )
    if len(account.alerts) > len(alerts):
        parts.append(f"<p>… and {len(account.alerts) - len(alerts)} more in the dashboard.</p>")
    rows = [
        (
            _link(chart_url(dashboard, "domain", move.domain), move.domain),
            escape(pair_text(move.dr)),
            escape(pair_text(move.true_dr)),
            escape(pair_text(move.referring_domains, percent=True)),
        )
        for move in account.domain_moves
    ]
    parts += _html_section(
        "Watched domains: biggest moves",
        ("Domain", "DR", "TrueDR", "Referring domains"),
        rows,
        NO_DOMAIN_MOVED,
    )
    rows = [
        (
            _link(chart_url(dashboard, "keyword", move.keyword), move.keyword),
            escape(site_words(move.site)),
            escape(f"{number_text(move.before)} → {number_text(move.after)}"),
            escape(move.words),
        )
        for move in account.keyword_moves
    ]
    parts += _html_section(
        "Keywords: biggest moves", ("Keyword", "For", "Position", "Change"), rows, "No keyword moved."
    )
    notes = [(escape(when), escape(what)) for when, what in account.notes]
    parts += _html_section("Notes on the charts", ("When", "Note"), notes, NO_NOTES)
    return "\n".join(parts)


def render_html(digest: Digest) -> str:
    dashboard = digest.dashboard_url.rstrip("/")
    sections = "\n".join(_account_html(account, dashboard) for account in digest.accounts)
    if not digest.accounts:
        sections = "<p>No account has any history yet.</p>"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(digest.subject)}</title></head>\n"
        f'<body style="{BODY}">\n'
        f'<h1 style="font-size:20px;margin:0 0 4px 0">{escape(PRODUCT)}: '
        f"{escape(period_words(digest.start, digest.end))}</h1>\n"
        f"<p>{escape(count_words(digest.alert_count, 'alert').capitalize())} in this period. "
        f"{_link(f'{dashboard}/{ALERTS_PATH}', 'Open the Alerts page')} · "
        f"{_link(dashboard, 'Open the dashboard')}</p>\n"
        f"{sections}\n"
        '<p style="color:#6b7280;font-size:12px;margin-top:24px">Sent by the Authority Dashboard '
        "(python -m store digest).</p>\n</body></html>\n"
    )
