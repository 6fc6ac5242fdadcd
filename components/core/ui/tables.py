"""Tables with a CSV download: every table in the app leaves it through here. Also the one way a
0–100 score (DR, TrueDR, a signal's score) is drawn in a table column, and a site's ratings columns.

Every download comes in two forms. "Download CSV" is for a person opening it in a spreadsheet: the
columns the page shows, in its order, under its labels ("Referring domain", "Spam score"), with
yes/no for true/false and figures rounded as the page shows them (14.8, not 14.814814814814813).
"Raw CSV" is for scripts and imports: every column under its field name (``true_dr``,
``spam_score``), every figure as it is. Both go through ``safe_csv``, which keeps the rule every CSV
of the app keeps (``analysis.spreadsheet``): a text cell a spreadsheet would run as a formula
(starting with =, +, -, @, a tab or a carriage return, or their full-width forms) gets an apostrophe in
front, because domain titles, anchors and keywords come from third parties; numbers stay numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any, Literal

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from analysis.spreadsheet import csv_text
from analysis.text import field_words


def score_column(label: str, *, format: str = "%d", help: str | None = None) -> ColumnConfig:
    """A table column for a 0–100 score, drawn as a bar on the full 0–100 scale."""
    return st.column_config.ProgressColumn(label, min_value=0, max_value=100, format=format, help=help)


#: A site's ratings as every table of sites shows them (each page adds its own columns around them).
SITE_RATING_COLUMNS = {
    "dr": score_column("DR"),
    "true_dr": score_column("TrueDR"),
    "trust_score": st.column_config.NumberColumn("Trust", format="%d"),
    "traffic_validated": st.column_config.CheckboxColumn("Traffic validated"),
}


#: Words of a column name a person reads in a set spelling; the rest are lower case.
NAME_WORDS = {
    "dr": "DR",
    "truedr": "TrueDR",
    "url": "URL",
    "urls": "URLs",
    "id": "ID",
    "ai": "AI",
    "gsc": "Search Console",
    "serp": "SERP",
    "html": "HTML",
    "csv": "CSV",
}
#: A row height (pixels) at which the grid wraps a long cell over three lines. The grid wraps text only
#: in rows taller than 4rem (64 px); at the default height a row fits one line, cut off with an ellipsis.
WRAPPED_ROW_HEIGHT = 80
#: A row height (pixels) at which the grid wraps a cell's text over two lines (it wraps only above 64).
TWO_LINE_ROW_HEIGHT = 66
#: The grid's header row (pixels), and how many rows a table with taller rows shows before it scrolls.
HEADER_HEIGHT = 35
MAX_AUTO_ROWS = 10
#: How a true/false cell reads in the readable CSV.
YES_NO = {True: "yes", False: "no"}
#: A column's printf format and the decimals it shows: "%.1f%%" one, "%+,d" none; "%g" and "%f" show a
#: figure as it is.
PRINTF_DECIMALS = re.compile(r"%[-+0 ,_']*\d*(?:\.(\d+))?([dif])")


def humanised(name: str) -> str:
    """A field name as words, for a column the page gives no label: ``spam_score`` → "Spam score",
    ``true_dr`` → "TrueDR", ``xHandle`` → "X handle"."""
    return field_words(name, NAME_WORDS)


def column_labels(column_config: Mapping[Any, Any] | None) -> dict[str, str | None]:
    """What the page calls each configured column (None for a hidden one), read from its column config:
    a ``st.column_config`` entry's label, a plain string label, or None to hide the column."""
    labels: dict[str, str | None] = {}
    for name, config in (column_config or {}).items():
        if not isinstance(name, str):
            continue
        if config is None or (isinstance(config, Mapping) and config.get("hidden")):
            labels[name] = None
        elif isinstance(config, str):
            labels[name] = config or humanised(name)
        else:
            labels[name] = (config.get("label") if isinstance(config, Mapping) else None) or humanised(name)
    return labels


def column_decimals(column_config: Mapping[Any, Any] | None) -> dict[str, int]:
    """How many decimals the page shows of each configured number column, read from its printf format;
    a column shown as it is (no format, "%g", a named format) is absent."""
    decimals: dict[str, int] = {}
    for name, config in (column_config or {}).items():
        type_config = config.get("type_config") if isinstance(config, Mapping) else None
        shown = type_config.get("format") if isinstance(type_config, Mapping) else None
        found = PRINTF_DECIMALS.search(shown) if isinstance(shown, str) else None
        if isinstance(name, str) and found and (found[2] != "f" or found[1]):
            decimals[name] = int(found[1] or 0) if found[2] == "f" else 0
    return decimals


def _is_true_false(series: pd.Series) -> bool:
    """A column of true/false values (with or without gaps), whatever its dtype says."""
    if pd.api.types.is_bool_dtype(series):
        return True
    values = series.dropna()
    return bool(
        series.dtype == object and not values.empty and values.map(lambda v: isinstance(v, bool)).all()
    )


def readable_frame(
    frame: pd.DataFrame,
    labels: Mapping[str, str | None],
    order: Sequence[str] | None = None,
    *,
    narrowed_to_fit: bool = False,
    decimals: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """The table as a person reads it in a spreadsheet: the columns the page shows (``order`` when it
    sets one; none ``labels`` hides), under their on-screen labels, with yes/no for true/false and
    figures rounded to the ``decimals`` the page shows them with (``column_decimals``).

    ``narrowed_to_fit`` says ``order`` leaves columns out only so the table fits the page: then the
    frame's other columns follow the shown ones (still none that ``labels`` hides), so a long column
    (why a partner fits, a title) is in the spreadsheet even though the page shows it elsewhere.

    A column with no label gets its name in words; two columns that would read the same keep their
    field name in brackets, so no header is ambiguous.
    """
    candidates = list(order if order is not None else frame.columns)
    if narrowed_to_fit:
        candidates += [c for c in frame.columns if c not in candidates]
    shown = [c for c in candidates if c in frame.columns and (c not in labels or labels[c] is not None)]
    readable = frame.loc[:, shown].copy()
    places = decimals or {}
    for column in shown:
        if _is_true_false(readable[column]):
            readable[column] = readable[column].astype(object).map(YES_NO.get, na_action="ignore")
        elif column in places and pd.api.types.is_numeric_dtype(readable[column]):
            rounded = readable[column].round(places[column])
            readable[column] = rounded if places[column] else rounded.astype("Int64")
    headers = [labels.get(c) or humanised(c) for c in shown]
    repeated = {h for h in headers if headers.count(h) > 1}
    readable.columns = [f"{h} ({c})" if h in repeated else h for h, c in zip(headers, shown, strict=True)]
    return readable


def safe_csv(frame: pd.DataFrame) -> bytes:
    """UTF-8 CSV (with BOM, so spreadsheets detect the encoding) in the frame's column order, defused."""
    return csv_text(frame).encode("utf-8-sig")


def csv_file_name(what: str, subject: str | None = None, *, day: date | None = None) -> str:
    """``what_subject_YYYY-MM-DD.csv`` made only of safe characters, whatever the subject holds."""

    def clean(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:80]

    parts = [clean(what) or "export"]
    if subject and clean(subject):
        parts.append(clean(subject))
    parts.append((day or date.today()).isoformat())
    return "_".join(parts) + ".csv"


def csv_download(
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    *,
    what: str,
    subject: str | None = None,
    key: str,
    label: str = "Download CSV",
    column_config: Mapping[Any, Any] | None = None,
    column_order: Sequence[str] | None = None,
    narrowed_to_fit: bool = False,
) -> None:
    """The readable CSV's download button (``label``) and, next to it, the raw one; each file is built
    when its button is clicked, not on every rerun.

    The readable file is the default because the people who download are marketers opening it in a
    spreadsheet; the raw file keeps the field names a script or an import expects. With
    ``narrowed_to_fit`` the readable file also has the columns ``column_order`` leaves off the screen
    (see ``readable_frame``); the raw file always has every column.
    """
    labels, decimals = column_labels(column_config), column_decimals(column_config)

    def rows() -> pd.DataFrame:
        return frame() if callable(frame) else frame

    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.download_button(
            label,
            data=lambda: safe_csv(
                readable_frame(
                    rows(), labels, column_order, narrowed_to_fit=narrowed_to_fit, decimals=decimals
                )
            ),
            file_name=csv_file_name(what, subject),
            mime="text/csv",
            key=f"{key}_csv",
            icon=":material/download:",
            help="For a spreadsheet: the columns as shown here, with yes/no.",
            on_click="ignore",
        )
        st.download_button(
            "Raw CSV",
            data=lambda: safe_csv(rows()),
            file_name=csv_file_name(f"{what}-raw", subject),
            mime="text/csv",
            key=f"{key}_raw_csv",
            type="tertiary",
            help="For scripts and imports: every column under its field name (true_dr, spam_score), "
            "with True/False.",
            on_click="ignore",
        )


def table_with_export(
    frame: pd.DataFrame,
    *,
    what: str,
    subject: str | None = None,
    key: str,
    column_config: dict[str, Any] | None = None,
    column_order: list[str] | None = None,
    label: str = "Download CSV",
    height: int | Literal["auto"] = "auto",
    row_height: int | None = None,
    narrowed_to_fit: bool = False,
) -> None:
    """A sortable dataframe and, under it, its CSV downloads: as shown (labels, yes/no) and raw.

    Missing values show as a dash, not "None": an unknown signal is not a value.

    ``row_height`` (pixels) makes rows taller than the one line they get by default; only then does
    the grid wrap a long cell's text over several lines (``WRAPPED_ROW_HEIGHT`` fits about three).
    ``narrowed_to_fit`` says ``column_order`` leaves columns off only so the table fits the page: the
    readable CSV keeps them (see ``readable_frame``).
    """
    if row_height is not None and height == "auto":
        # "auto" reckons with one-line rows: taller ones would be cut off under a scroll of their own.
        height = HEADER_HEIGHT + row_height * min(len(frame), MAX_AUTO_ROWS) + 3
    st.dataframe(
        frame,
        hide_index=True,
        column_config=column_config,
        column_order=column_order,
        key=f"{key}_table",
        height=height,
        row_height=row_height,
        placeholder="—",
    )
    csv_download(
        frame,
        what=what,
        subject=subject,
        key=key,
        label=label,
        column_config=column_config,
        column_order=column_order,
        narrowed_to_fit=narrowed_to_fit,
    )
