"""Which domains the Market page's charts compare (``analysis.market.standing.compared_domains``): your
sites and watched competitors always, and the largest shares of voice even when those fill the lines."""

from __future__ import annotations

import pandas as pd

from analysis.figures.history_charts import domain_colours
from analysis.market.standing import MAX_DOMAINS, compared_domains

OWN = ["mine.com", "mine-too.com", "mine-three.com"]
COMPETITORS = ["rival-a.com", "rival-b.com", "rival-c.com", "rival-d.com"]
LEADERS = {"first.com": 12.0, "second.com": 9.0, "third.com": 7.0, "fourth.com": 1.0, "mine.com": 5.0}


def _figures() -> pd.DataFrame:
    day = pd.Timestamp("2026-03-01")
    return pd.DataFrame(
        {
            "day": day,
            "domain": list(LEADERS),
            "visibility": list(LEADERS.values()),
            "share_of_voice": list(LEADERS.values()),
            "weighted_visibility": float("nan"),
        }
    )


def test_the_leading_shares_are_charted_however_many_sites_and_competitors_are_watched() -> None:
    domains = compared_domains(_figures(), OWN, COMPETITORS)
    assert domains[: len(OWN) + len(COMPETITORS)] == [*OWN, *COMPETITORS]
    assert {"first.com", "second.com", "third.com"} <= set(domains)
    assert "fourth.com" not in domains  # smaller than every leader charted, and the lines are full
    assert len(set(domain_colours(domains).values())) == len(domains)  # one colour each


def test_with_few_watched_the_leaders_fill_the_lines_up_to_the_limit() -> None:
    domains = compared_domains(_figures(), OWN[:1], [])
    assert domains == ["mine.com", "first.com", "second.com", "third.com", "fourth.com"]
    assert compared_domains(_figures(), OWN[:1], [], limit=2) == [
        "mine.com",
        "first.com",
        "second.com",
        "third.com",
    ]
    assert len(compared_domains(_figures(), OWN[:1], [])) <= MAX_DOMAINS
