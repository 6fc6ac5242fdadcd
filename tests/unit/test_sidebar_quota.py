"""The sidebar's quota bar is coloured by how much is left: a full quota is green, not alarm red."""

from __future__ import annotations

import pytest

from analysis.figures.common import DOWN, UP
from components.core.ui.sidebar import (
    QUOTA_BAR_KEY,
    QUOTA_LOOK,
    quota_bar_style,
    quota_colour,
    quota_level,
    quota_share,
)

AMBER = QUOTA_LOOK["low"][0]


@pytest.mark.parametrize(
    ("remaining", "limit", "level", "colour"),
    [
        (1000, 1000, "plenty", UP),  # the case: a full quota was drawn red
        (250, 1000, "plenty", UP),
        (249, 1000, "low", AMBER),
        (100, 1000, "low", AMBER),
        (99, 1000, "nearly out", DOWN),
        (0, 1000, "nearly out", DOWN),
        (1200, 1000, "plenty", UP),  # more left than the limit reads as full
        (5, 0, "nearly out", DOWN),  # a zero limit leaves nothing to spend
    ],
)
def test_the_bar_is_green_with_plenty_left_amber_when_low_red_when_nearly_out(
    remaining: int, limit: int, level: str, colour: str
) -> None:
    assert quota_level(remaining, limit) == level
    assert quota_colour(remaining, limit) == colour


def test_amber_is_neither_the_green_nor_the_red() -> None:
    assert len({UP, AMBER, DOWN}) == 3


def test_low_levels_say_so_in_words_not_only_in_colour() -> None:
    assert QUOTA_LOOK["plenty"][1] is None
    assert QUOTA_LOOK["low"][1] and QUOTA_LOOK["nearly out"][1]


@pytest.mark.parametrize(("remaining", "limit", "share"), [(500, 1000, 0.5), (-3, 10, 0.0), (20, 10, 1.0)])
def test_the_share_left_stays_between_empty_and_full(remaining: int, limit: int, share: float) -> None:
    assert quota_share(remaining, limit) == share


def test_the_colour_rule_reaches_only_the_quota_bar() -> None:
    style = quota_bar_style(AMBER)
    assert style.startswith("<style>") and style.endswith("</style>")
    assert f".st-key-{QUOTA_BAR_KEY} " in style and f"background-color: {AMBER};" in style
