"""What reaching the targets is worth: the site's visibility and share of voice over the chosen keywords'
latest top 10s, now and with the site climbed to the target in each, by the market's one definition."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest

from analysis.opportunities.worth import reached, worth_of_reaching

SITE = "mine.com"
DAY = pd.Timestamp(date(2026, 11, 20))


def top10(keyword: str, site_at: int | None) -> pd.DataFrame:
    domains = [f"{keyword.replace(' ', '-')}-{p}.com" for p in range(1, 11)]
    if site_at is not None:
        domains[site_at - 1] = SITE
    columns = {"site": SITE, "keyword": keyword, "day": DAY, "position": range(1, 11), "domain": domains}
    return pd.DataFrame({**columns, "dr": 50.0})


def test_a_climb_puts_the_site_at_the_target_and_moves_the_rest_down_one_place() -> None:
    rows = reached(top10("crm", 5), SITE, {"crm"}, 3).set_index("position")["domain"]
    assert rows[3] == SITE and rows[4] == "crm-3.com" and rows[5] == "crm-4.com"
    assert 6 not in rows.index and rows[7] == "crm-6.com" and len(rows) == 9  # its old place left empty
    new = reached(top10("tools", None), SITE, {"tools"}, 3).set_index("position")["domain"]
    assert new[3] == SITE and new[10] == "tools-9.com" and "tools-10.com" not in set(new)
    already = reached(top10("crm", 2), SITE, {"crm"}, 3)
    assert already.equals(top10("crm", 2))  # at the target or above: nothing to climb


def test_the_worth_is_the_markets_visibility_and_share_of_voice_before_and_after() -> None:
    # CTR 30 22 14 10 8 6 4 3 2 2 (101 a keyword): #5 in one keyword, absent from the other; then #3 in both.
    frame = pd.concat([top10("crm", 5), top10("tools", None)], ignore_index=True)
    worth = worth_of_reaching(frame, SITE, ["crm", "tools"], 3)
    assert worth is not None and worth.keywords == 2
    assert worth.visibility_now == pytest.approx((8 / 30 * 100) / 2)
    assert worth.visibility_then == pytest.approx(14 / 30 * 100)
    assert worth.share_now == pytest.approx(8 / 202 * 100)
    assert worth.share_then == pytest.approx(28 / (95 + 101) * 100)
    assert worth_of_reaching(frame, SITE, ["never recorded"], 3) is None
