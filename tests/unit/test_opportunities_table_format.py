"""The Opportunities table's large figures read with thousands separators: a score of 297,654.0 next to
1,163.9 and 2,977 clicks next to 297, as the volume beside them already reads (2,120), not 297654.0."""

from __future__ import annotations

import pytest

from components.opportunities.widgets.table import COLUMNS

#: The columns whose figures run into thousands: the score (divided by at least 1 DR point) and clicks.
LARGE = ("score", "clicks_gained", "clicks_now", "clicks_target", "volume")


@pytest.mark.parametrize("column", LARGE)
def test_large_figures_are_grouped_in_thousands(column: str) -> None:
    number_format = COLUMNS[column]["type_config"]["format"]
    assert number_format == "localized" or number_format.startswith("%,"), number_format
