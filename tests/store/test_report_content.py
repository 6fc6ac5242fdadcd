"""The report's tables read from a history with known rows: every "Change" is over the report's period,
and the link tables agree with the statuses they print and with the period's alerts.

A constructed March 2025 for one own site (``example.com``): tracked keywords whose last two days are
alike but whose month is not, and weekly Trust Maps (one in late February, four in March) in which a
strong link leaves the sample, another goes from live to lost, a domain joins with its link already
lost, and two spam-risky domains turn up as the alert rule sees them (one against February's map, one
that left the sample and came back).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from html.parser import HTMLParser

import pytest

from analysis.figures.history_charts import trust_map_totals_chart
from client.inputs import slug_for
from services.alerts.evaluate import evaluate_alerts
from services.reports.branding import Branding
from services.reports.content import gather
from services.reports.document import render_html
from store import HistoryStore
from store.reports.period import parse_month
from tests.store.samples import ACCOUNT, Link, keyword_report, tracked, trust_map_of

#: The new spam table's title with the team's default spam alert threshold.
SPAM_TABLE = "New referring domains with a spam score of 50 or more"

SITE = "example.com"
MONTH = parse_month("2025-03")
#: Any curve: this history has no top 10s, so the visibility section is empty.
CTR = (0.3, 0.15, 0.1, 0.07, 0.05, 0.04, 0.03, 0.02, 0.02, 0.02)


class Tables(HTMLParser):
    """Each table of a page under the last heading (h2 or h3) before it: its header cells and rows."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.headers: dict[str, list[str]] = {}
        self._heading: str | None = None
        self._title = ""
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h2", "h3"):
            self._heading = ""
        elif tag == "table":
            self.tables[self._title] = []
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3") and self._heading is not None:
            self._title, self._heading = self._heading.strip(), None
        elif tag == "thead":
            self._in_head = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._in_head:
                self.headers[self._title] = self._row
            else:
                self.tables[self._title].append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading += data
        if self._cell is not None:
            self._cell.append(data)


def tables_of(html: str) -> Tables:
    parser = Tables()
    parser.feed(html)
    return parser


def march(day: int) -> date:
    return date(2025, 3, day)


def _keyword_history(store: HistoryStore) -> None:
    """Two keywords whose last two days are alike but whose month is not: 8 → 7 and 18 → 20."""
    days = [march(1) + timedelta(days=n) for n in range(31)]
    store.snapshots.seed(
        ACCOUNT,
        trackeds=[
            (
                day,
                tracked(
                    slug_for(SITE),
                    {
                        "coffee subscription uk": 8 if day < march(20) else 7,
                        "specialty coffee roaster": 18 if day < march(10) else 20,
                    },
                ),
            )
            for day in days
        ],
        source="job",
    )


#: The Trust Maps: one before the month (Feb 22) and four in it. name -> (DR, link type, status, spam).
STRONG: Link = (95, "nofollow", "live", 50.0)
MAPS: dict[date, dict[str, Link]] = {
    date(2025, 2, 22): {
        "strong.com": STRONG,
        "dropped.org": (60, "dofollow", "live", 10.0),
        "steady.net": (40, "dofollow", "live", 5.0),
        "spammy.biz": (30, "dofollow", "lost", 73.0),
    },
    march(1): {
        "strong.com": STRONG,
        "dropped.org": (60, "dofollow", "live", 10.0),
        "steady.net": (40, "dofollow", "live", 5.0),
        "spammy.biz": (30, "dofollow", "lost", 73.0),
        "early-spam.info": (20, "dofollow", "live", 80.0),  # new and spam-risky against Feb 22
    },
    march(8): {
        "strong.com": STRONG,
        "dropped.org": (60, "dofollow", "live", 10.0),
        "steady.net": (40, "dofollow", "live", 5.0),
        "early-spam.info": (20, "dofollow", "live", 80.0),
    },
    march(22): {
        "dropped.org": (60, "dofollow", "lost", 10.0),
        "steady.net": (40, "dofollow", "live", 5.0),
        "early-spam.info": (20, "dofollow", "live", 80.0),
    },
    march(29): {
        "dropped.org": (60, "dofollow", "lost", 10.0),
        "steady.net": (40, "dofollow", "live", 5.0),
        "early-spam.info": (20, "dofollow", "live", 80.0),
        "spammy.biz": (30, "dofollow", "lost", 73.0),  # back in the sample: new against Mar 22
        "joined.io": (45, "dofollow", "live", 8.0),
        "joined-lost.co": (35, "dofollow", "lost", 12.0),  # joins with its link already lost
    },
}


@pytest.fixture
def history(store: HistoryStore) -> HistoryStore:
    store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
    _keyword_history(store)
    store.snapshots.seed(
        ACCOUNT, trust_maps=[(day, trust_map_of(SITE, links)) for day, links in MAPS.items()], source="job"
    )
    evaluate_alerts(store, ACCOUNT, as_of=march(31), days=40)
    return store


def report_tables(store: HistoryStore) -> Tables:
    content = gather(store, ACCOUNT, SITE, MONTH, ctr=CTR)
    return tables_of(render_html(content, Branding(), {}))


def test_the_keyword_tables_change_is_over_the_reports_period(history: HistoryStore) -> None:
    tables = report_tables(history)
    header = tables.headers["Keyword positions"]
    rows = {row[0]: dict(zip(header, row, strict=True)) for row in tables.tables["Keyword positions"]}
    change = next(name for name in header if name.startswith("Change"))
    # Both were the same on the month's last two days; over the month one rose a place, one fell two.
    assert rows["coffee subscription uk"]["Position"] == "7"
    assert rows["coffee subscription uk"][change] == "+1"
    assert rows["specialty coffee roaster"]["Position"] == "20"
    assert rows["specialty coffee roaster"][change] == "-2"
    # The summary's Change is over the same span: the words say from which day to which.
    html = render_html(gather(history, ACCOUNT, SITE, MONTH, ctr=CTR), Branding(), {})
    assert "first recorded day in March 2025 to its last" in html


def _links(tables: Tables, title: str) -> dict[str, dict[str, str]]:
    """A link table's rows by referring domain, each as its header's names -> cells."""
    header = tables.headers[title]
    rows = [dict(zip(header, row, strict=True)) for row in tables.tables[title]]
    return {row["Referring domain"]: row for row in rows}


def _statuses(tables: Tables, title: str) -> dict[str, str]:
    return {name: row["Status"] for name, row in _links(tables, title).items()}


def test_gained_and_lost_agree_with_the_statuses_they_print(history: HistoryStore) -> None:
    tables = report_tables(history)
    gained = _statuses(tables, "Strongest referring domains gained")
    lost = _statuses(tables, "Strongest referring domains lost")
    assert gained == {"joined.io": "live"}  # joined-lost.co joined with a lost link: nothing gained
    assert lost == {"strong.com": "gone from the sample", "dropped.org": "lost"}
    assert set(lost.values()).isdisjoint({"live"}) and set(gained.values()) == {"live"}


def test_the_new_spam_risky_table_lists_what_the_periods_alerts_say(history: HistoryStore) -> None:
    content = gather(history, ACCOUNT, SITE, MONTH, ctr=CTR)
    told = content.alerts[content.alerts["rule"] == "spam_risky_link"]
    assert set(told["referring_domain"]) == {"early-spam.info", "spammy.biz"}
    tables = tables_of(render_html(content, Branding(), {}))
    listed = _links(tables, SPAM_TABLE)
    assert set(listed) == set(told["referring_domain"])
    assert listed["spammy.biz"]["Status"] == "lost" and listed["early-spam.info"]["Status"] == "live"
    # Each on the day its alert has.
    assert listed["early-spam.info"]["Day"] == "1 Mar 2025" and listed["spammy.biz"]["Day"] == "29 Mar 2025"


def test_the_new_spam_table_names_the_teams_alert_threshold_apart_from_the_charts_line(
    history: HistoryStore,
) -> None:
    # The team's spam alert fires from 30; the Trust Map's spam-risky count stays from 50: two lines,
    # each named by its number, so no reader takes one for the other.
    history.alerts.set_alert_setting(ACCOUNT, "spam_risky_link", threshold=30, enabled=True, person="ann")
    content = gather(history, ACCOUNT, SITE, MONTH, ctr=CTR)
    tables = tables_of(render_html(content, Branding(), {}))
    assert "New referring domains with a spam score of 30 or more" in tables.tables
    assert SPAM_TABLE not in tables.tables
    legend = [trace.name for trace in trust_map_totals_chart(content.churn.totals, SITE).data]
    assert "Spam-risky domains (spam score 50+)" in legend


def section_texts(html: str) -> dict[str, str]:
    """Each section's text (tags dropped, spaces squeezed), by its title."""
    parts = re.split(r"<h2>(.*?)</h2>", html)
    return {
        title: " ".join(re.sub(r"<[^>]+>", " ", body).split())
        for title, body in zip(parts[1::2], parts[2::2], strict=True)
    }


def test_each_section_says_plainly_which_keywords_it_measures(history: HistoryStore) -> None:
    # example.com: tracked keywords with positions and a watched keyword with top 10s; quiet.org: neither.
    history.watchlist.watch(ACCOUNT, "keyword", "crm software", site=SITE)
    history.snapshots.seed(
        ACCOUNT,
        keyword_reports=[(march(n), keyword_report("crm software", SITE, 4), SITE) for n in (2, 30)],
        source="job",
    )
    history.watchlist.watch(ACCOUNT, "domain", "quiet.org", origin="own")
    history.snapshots.seed(ACCOUNT, trust_maps=[(march(5), trust_map_of("quiet.org", {}))], source="job")
    for site in (SITE, "quiet.org"):
        sections = section_texts(render_html(gather(history, ACCOUNT, site, MONTH, ctr=CTR), Branding(), {}))
        assert f"keywords tracked for {site}" in sections["Keyword positions"], site
        assert f"keywords watched for {site}" in sections["Visibility and share of voice"], site
        assert "tracked keywords" in sections["Visibility and share of voice"], site  # not the ones above


def test_a_link_table_cut_to_its_strongest_says_how_many_there_were(store: HistoryStore) -> None:
    store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
    spam = {f"spam{n:02}.biz": (10 + n, "dofollow", "live", 70.0) for n in range(12)}
    maps = {march(1): {"steady.net": (40, "dofollow", "live", 5.0)}, march(29): spam}
    store.snapshots.seed(
        ACCOUNT, trust_maps=[(day, trust_map_of(SITE, links)) for day, links in maps.items()], source="job"
    )
    sections = section_texts(render_html(gather(store, ACCOUNT, SITE, MONTH, ctr=CTR), Branding(), {}))
    links = sections["Links: Trust Map changes"]
    assert "The 10 strongest of 12 new referring domains with a spam score of 50 or more." in links
    assert "The 10 strongest of 12 referring domains gained." in links
    tables = tables_of(render_html(gather(store, ACCOUNT, SITE, MONTH, ctr=CTR), Branding(), {}))
    assert len(tables.tables[SPAM_TABLE]) == 10
