"""What a click on Track would do with the keywords chosen on the Opportunities page, said before it:
the tracked keywords are never sent again, only what fits the site's limit and the monthly checks left is
sent, and the words name which would not fit and why."""

from __future__ import annotations

from analysis.keywords.frames.tracked import Usage
from analysis.links import opportunities_query
from analysis.opportunities.tracking import plan_tracking


def _use(
    tracked: int, limit: int | None = 25, used: int | None = None, allowance: int | None = None
) -> Usage:
    return Usage(tracked=tracked, limit=limit, checks_used=used, checks_limit=allowance)


def test_tracked_keywords_are_left_out_whatever_their_spelling() -> None:
    plan = plan_tracking(["Coffee  Beans", "tea", "tea"], ["coffee beans"], _use(12))
    assert plan.tracked == ("Coffee  Beans",) and plan.fits == ("tea",) and not plan.over
    assert plan.standing_words() == "12 of 25 tracked; 2 chosen, 1 not tracked yet."
    assert plan.detail_words() == ["Tracked already, not sent again: “Coffee  Beans”."]
    assert plan.refusal() is None


def test_past_the_limit_the_first_chosen_fit_and_the_rest_are_named() -> None:
    plan = plan_tracking(["a", "b", "c"], [], _use(23))
    assert plan.fits == ("a", "b") and plan.over == ("c",)
    assert plan.detail_words() == [
        "Would not fit, not sent: “c” — the site tracks 23 of 25 keywords, its limit, "
        "room for 2 more keywords."
    ]
    full = plan_tracking(["a"], [], _use(25))
    assert not full.fits and full.refusal() == (
        "The site tracks 25 of 25 keywords, its limit: remove one on Tracked keywords to make room."
    )


def test_the_monthly_checks_left_bound_what_is_sent_and_are_said() -> None:
    plan = plan_tracking(["a", "b", "c"], [], _use(4, used=9, allowance=10))
    assert plan.fits == ("a",) and plan.over == ("b", "c")
    assert plan.standing_words() == (
        "4 of 25 tracked; 3 chosen, 3 not tracked yet. "
        "1 of 10 monthly keyword checks left; each add spends one."
    )
    assert plan.detail_words() == [
        "Would not fit, not sent: “b”, “c” — 1 monthly keyword check left, one per add."
    ]
    spent = plan_tracking(["a"], [], _use(4, used=10, allowance=10))
    assert (
        spent.refusal()
        == "No monthly keyword check is left: adds work again when the allowance renews next month."
    )


def test_an_unknown_limit_sends_every_new_keyword_and_says_the_limit_is_unknown() -> None:
    plan = plan_tracking(["a", "b"], [], _use(3, limit=None))
    assert plan.fits == ("a", "b")
    assert (
        plan.standing_words() == "3 tracked (the service did not say its limit); 2 chosen, 2 not tracked yet."
    )


def test_nothing_chosen_or_everything_tracked_disables_the_button_with_the_reason() -> None:
    assert (
        plan_tracking([], [], _use(3)).refusal()
        == "Choose rows in the table first (the boxes at their left)."
    )
    assert plan_tracking(["a"], ["A"], _use(3)).refusal() == "Every chosen keyword is tracked already."


def test_a_link_to_the_opportunities_page_names_its_site_and_target() -> None:
    assert opportunities_query("example.com") == {"site": "example.com"}
    assert opportunities_query("example.com", 5) == {"site": "example.com", "target": "5"}
