"""The two CSV forms every table offers: readable (on-screen labels, yes/no) and raw (field names).

The readable form is built from the column config a page already passes to its table, so what a
person reads in the spreadsheet is what the page showed; both forms keep the formula defusing.
"""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest
import streamlit as st

from components.core.ui.tables import column_decimals, column_labels, humanised, readable_frame, safe_csv


def _rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


LINKS = pd.DataFrame(
    {
        "domain": ["a.com", "=evil()"],
        "dr": pd.array([-4, None], dtype="Int64"),
        "follow": pd.array([True, False], dtype="boolean"),
        "traffic_validated": pd.array([None, True], dtype="boolean"),
        "spam_score": [12.0, 80.0],
        "slug": ["a-com", "evil"],
    }
)
LINK_CONFIG = {
    "domain": st.column_config.TextColumn("Referring domain"),
    "dr": st.column_config.ProgressColumn("DR", min_value=0, max_value=100),
    "follow": st.column_config.CheckboxColumn("Follow"),
    "traffic_validated": st.column_config.CheckboxColumn(),  # no label: named from the field
    "slug": None,  # hidden on the page
}


def test_readable_csv_has_the_labels_a_person_reads_and_yes_no() -> None:
    rows = _rows(safe_csv(readable_frame(LINKS, column_labels(LINK_CONFIG))))
    assert rows[0] == ["Referring domain", "DR", "Follow", "Traffic validated", "Spam score"]
    assert [row[2] for row in rows[1:]] == ["yes", "no"]
    assert [row[3] for row in rows[1:]] == ["", "yes"]  # unknown stays empty, not "no"


def test_readable_csv_leaves_out_hidden_columns_and_follows_the_page_order() -> None:
    readable = readable_frame(LINKS, column_labels(LINK_CONFIG), ["spam_score", "domain", "slug"])
    assert list(readable.columns) == ["Spam score", "Referring domain"]


#: A table narrowed to fit the page: why a partner fits and its title are long, so the page shows
#: them under the table, not as columns; the spreadsheet has room for them.
PARTNERS = pd.DataFrame(
    {
        "domain": ["a.com"],
        "why": ["Same audience, no overlap in links"],
        "dr": pd.array([41], dtype="Int64"),
        "title": ["A — the analytics blog"],
        "slug": ["a-com"],
    }
)
PARTNER_CONFIG = {
    "domain": st.column_config.TextColumn("Partner"),
    "why": st.column_config.TextColumn("Why it fits"),
    "dr": st.column_config.ProgressColumn("DR", min_value=0, max_value=100),
    "slug": None,  # hidden for good: not for people
}


def test_columns_left_off_only_to_fit_the_page_stay_in_the_readable_csv() -> None:
    shown_on_page = ["domain", "dr"]
    readable = readable_frame(PARTNERS, column_labels(PARTNER_CONFIG), shown_on_page, narrowed_to_fit=True)
    rows = _rows(safe_csv(readable))
    assert rows[0] == ["Partner", "DR", "Why it fits", "Title"]  # shown first, then the rest, never slug
    assert rows[1] == ["a.com", "41", "Same audience, no overlap in links", "A — the analytics blog"]


def test_a_table_not_narrowed_to_fit_keeps_only_its_shown_columns() -> None:
    readable = readable_frame(PARTNERS, column_labels(PARTNER_CONFIG), ["domain", "dr"])
    assert list(readable.columns) == ["Partner", "DR"]


def test_raw_csv_keeps_every_field_name_and_true_false() -> None:
    rows = _rows(safe_csv(LINKS))
    assert rows[0] == list(LINKS.columns)
    assert [row[2] for row in rows[1:]] == ["True", "False"]


@pytest.mark.parametrize("form", ["readable", "raw"])
def test_both_forms_defuse_formulas_and_keep_numbers(form: str) -> None:
    frame = readable_frame(LINKS, column_labels(LINK_CONFIG)) if form == "readable" else LINKS
    rows = _rows(safe_csv(frame))
    assert rows[2][0] == "'=evil()"
    assert rows[1][1] == "-4"  # a number, not text: left as it is


def test_a_label_that_looks_like_a_formula_is_defused_too() -> None:
    frame = pd.DataFrame({"gap": [-3]})
    assert _rows(safe_csv(readable_frame(frame, {"gap": "-Gap"})))[0] == ["'-Gap"]


def test_two_columns_with_one_label_keep_their_field_name() -> None:
    frame = pd.DataFrame({"dr": [1], "dr_then": [2]})
    readable = readable_frame(frame, {"dr": "DR", "dr_then": "DR"})
    assert list(readable.columns) == ["DR (dr)", "DR (dr_then)"]


def test_column_labels_read_every_way_a_page_names_a_column() -> None:
    labels = column_labels({"a": "Plain label", "b": None, "c": st.column_config.TextColumn("Shown"), 0: "x"})
    assert labels == {"a": "Plain label", "b": None, "c": "Shown"}


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("spam_score", "Spam score"),
        ("true_dr", "TrueDR"),
        ("dr", "DR"),
        ("xHandle", "X handle"),
        ("gsc_position", "Search Console position"),
        ("referring_domains", "Referring domains"),
    ],
)
def test_a_field_without_a_label_is_named_in_words(name: str, words: str) -> None:
    assert humanised(name) == words


def test_readable_csv_rounds_figures_as_the_page_shows_them() -> None:
    figures = pd.DataFrame(
        {
            "share": [14.814814814814813, None],
            "change": [-0.6647673314339974, 1.25],
            "traffic": [1234.4, 20.6],
            "median_dr": [41.5, 40.25],
        }
    )
    config = {
        "share": st.column_config.NumberColumn("Share", format="%.1f%%"),
        "change": st.column_config.NumberColumn("Change", format="%+.2f"),
        "traffic": st.column_config.NumberColumn("Traffic", format="%+,d"),
        "median_dr": st.column_config.NumberColumn("Median DR", format="%g"),  # as it is
    }
    rows = _rows(safe_csv(readable_frame(figures, column_labels(config), decimals=column_decimals(config))))
    assert rows == [
        ["Share", "Change", "Traffic", "Median DR"],
        ["14.8", "-0.66", "1234", "41.5"],
        ["", "1.25", "21", "40.25"],
    ]
