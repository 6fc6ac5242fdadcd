"""One figure everywhere: with a team's own click curve (``[visibility] ctr``) and three snapshot days,
the Market page, ``python -m store visibility --csv``, the report's visibility section (HTML and the
PDF's text), the site's spreadsheet feed and the group-visibility alert give the same visibility and
share of voice for the same site, keyword set and days, and those are the numbers the team's curve
gives when written out by hand here.

Before the market figures had one home, the report weighed positions with the default curve whatever
the settings said, so a client's PDF contradicted the Market page.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from client.models import KeywordReport, SerpResult
from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.demo_history import lookup_on
from services.alerts.evaluate import evaluate_alerts
from services.cli import main
from services.reports.branding import Branding
from services.reports.document import build_report
from services.reports.feeds import SITE_COLUMNS, feed_csv
from services.reports.render import shared_renderer
from store import HistoryStore
from store.reports.period import Period
from tests.apptest.app_pages import open_page
from tests.store.test_report_document import pdf_text

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "example.com"
RIVAL = "rival.com"
#: A team's own curve, far from the default (30 22 14 …): the first place takes half the clicks.
TEAM_CURVE = (50.0, 20.0, 10.0, 6.0, 5.0, 4.0, 2.0, 1.0, 1.0, 1.0)
TODAY = datetime.now(UTC).date()
#: Three snapshot days a week apart, the last today (the Market page opens on the last 90 days).
DAYS = [TODAY - timedelta(days=14), TODAY - timedelta(days=7), TODAY]
#: Each keyword's top 10 per day: (our position or None, the rival's position); the others fill the rest.
PLACES = {
    "crm software": [(1, 2), (2, 1), (6, 1)],
    "email marketing": [(3, 1), (3, 2), (None, 1)],
    "sales pipeline": [(2, 4), (4, 3), (8, 2)],
}


def _top10(keyword: str, ours: int | None, rivals: int) -> KeywordReport:
    results = [SerpResult(position=p, domain=f"other{p}.net", dr=30) for p in range(1, 11)]
    results[rivals - 1] = SerpResult(position=rivals, domain=RIVAL, dr=60)
    if ours is not None:
        results[ours - 1] = SerpResult(position=ours, domain=SITE, dr=40)
    return KeywordReport(keyword=keyword, results=results, median_dr=30.0, min_dr=30.0)


def _by_hand() -> dict[tuple[str, str], tuple[float, float]]:
    """(day, domain) → (visibility %, share of voice %) under the team's curve, from the definitions:
    visibility = mean over keywords of c(p)/c(1); share = Σ c(p) / Σ over every domain of c(p)."""
    figures = {}
    total = sum(TEAM_CURVE)  # every top 10 is full: each day's clicks are the curve's sum per keyword
    for index, day in enumerate(DAYS):
        for domain, place in ((SITE, 0), (RIVAL, 1)):
            clicks = [
                TEAM_CURVE[days[index][place] - 1]
                for days in PLACES.values()
                if days[index][place] is not None
            ]
            figures[(day.isoformat(), domain)] = (
                sum(clicks) / (TEAM_CURVE[0] * len(PLACES)) * 100,
                sum(clicks) / (total * len(PLACES)) * 100,
            )
    return figures


@pytest.fixture
def team(own_store: HistoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HistoryStore:
    """The team's curve in the secrets file the app, the commands and the jobs read (the working
    folder's ``.streamlit/secrets.toml``), and three days of top 10s of the keywords watched for SITE."""
    settings = tmp_path / "team"
    (settings / ".streamlit").mkdir(parents=True)
    curve = ", ".join(str(value) for value in TEAM_CURVE)
    (settings / ".streamlit" / "secrets.toml").write_text(f"[visibility]\nctr = [{curve}]\n")
    monkeypatch.chdir(settings)
    store = own_store
    store.watchlist.watch(ACCOUNT, "domain", SITE, origin="own")
    store.watchlist.watch(ACCOUNT, "domain", RIVAL)
    for day in DAYS:  # the site's own figures, without which a report has nothing to say
        store.snapshots.record_lookup(ACCOUNT, lookup_on(SITE, day), day, "job")
    for keyword, places in PLACES.items():
        store.watchlist.watch(ACCOUNT, "keyword", keyword, site=SITE)
        for day, (ours, rivals) in zip(DAYS, places, strict=True):
            store.snapshots.record_keyword_report(
                ACCOUNT, _top10(keyword, ours, rivals), day, "job", SITE, keyword
            )
    store.alerts.set_alert_setting(
        ACCOUNT, "visibility_fell", threshold=10.0, enabled=True, person="ann@team.example"
    )
    return store


def test_every_surface_gives_the_team_curves_visibility_and_share_of_voice(
    team: HistoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _by_hand()
    last = TODAY.isoformat()
    mine, rivals = expected[(last, SITE)], expected[(last, RIVAL)]

    # The Market page: the latest day's standing, and the change since the period's first day.
    at = open_page("views/market.py")
    assert not at.exception, [e.value for e in at.exception]
    (standing,) = [f.value for f in at.dataframe if "share_of_voice" in f.value.columns]
    shown = standing.set_index("domain")
    assert shown.loc[SITE, "visibility"] == pytest.approx(mine[0])
    assert shown.loc[SITE, "share_of_voice"] == pytest.approx(mine[1])
    assert shown.loc[RIVAL, "share_of_voice"] == pytest.approx(rivals[1])
    first = expected[(DAYS[0].isoformat(), SITE)]
    assert shown.loc[SITE, "visibility_change"] == pytest.approx(mine[0] - first[0])

    # The command, for the same site and days.
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    code = main(["visibility", "--csv", "--days", "15", "--site", SITE, "--database-url", team.url])
    out, err = capsys.readouterr()
    assert code == 0, err
    printed = {
        (row["day"], row["domain"]): (float(row["visibility"]), float(row["share_of_voice"]))
        for row in csv.DictReader(io.StringIO(out))
        if row["domain"] in (SITE, RIVAL)
    }
    assert printed == {key: (round(v, 1), round(s, 1)) for key, (v, s) in expected.items()}

    # The report's visibility section, in its HTML and in the printed PDF.
    report = build_report(
        team, ACCOUNT, SITE, Period(DAYS[0], DAYS[-1]), branding=Branding(), renderer=shared_renderer()
    )
    for text in (report.html, " ".join(pdf_text(report.pdf(), tmp_path).split())):
        assert f"{mine[0]:.1f} %" in text
        assert f"{mine[1]:.1f} %" in text
        assert f"{rivals[1]:.1f} %" in text
        assert f"all keywords watched for {SITE}" in text

    # The site's spreadsheet feed: its visibility and share of voice columns, day by day.
    feed = team.feeds.create_feed(ACCOUNT, SITE, "ann@team.example")
    lines = pd.read_csv(io.StringIO(feed_csv(team, feed, TODAY)), header=None, names=list(SITE_COLUMNS))
    fed = {
        (day, SITE): (visibility, share)
        for day, visibility, share in lines[["day", "visibility", "share_of_voice"]].itertuples(index=False)
    }
    assert fed == {key: (round(v, 1), round(s, 1)) for key, (v, s) in expected.items() if key[1] == SITE}

    # The group-visibility alert: the week's fall (told on the first day it reaches the threshold), from
    # and to the same figures.
    evaluate_alerts(team, ACCOUNT, as_of=TODAY, days=15)
    alerts = team.alerts.entries(ACCOUNT, state="all")
    falls = alerts[alerts["rule"] == "visibility_fell"]
    assert not falls.empty, "the site's visibility fell by more than 10 points in a week: an alert is due"
    for fall in falls.itertuples():
        day = pd.Timestamp(fall.day).date()
        before = expected[((day - timedelta(days=7)).isoformat(), SITE)][0]
        after = expected[(day.isoformat(), SITE)][0]
        assert (fall.before, fall.after) == (f"{before:.1f}%", f"{after:.1f}%")
