"""The Trust Map's derived view, built once per map and filters and shared by every rerun and session.

A cached rerun of the Trust Map used to rebuild its table from the map's models, filter it, count
its DR bands and breakdowns, and hash each of those frames again to find its built figure: about
half of the page's server time, on every rerun and every switch back to the page, for a result that
only changes with the map or the filters. Here the whole view (the map's frame and filter choices,
then per filter values the shown rows and the four figures) is kept per map content and filter
values. The key is a digest of the map as the service sent it, so an entry only ever goes to a
session that holds that very map: nothing crosses from one key's data to another.

The frames and figures are shared, not copied: callers only read them (``st.dataframe`` and
``st.plotly_chart`` do), and must not change them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from analysis.figures.common import inert_figure
from analysis.research.charts import breakdown_chart, dr_band_chart, importance_scatter
from analysis.research.frames.trust_map import (
    MapFilters,
    breakdown,
    choices,
    dr_band_counts,
    filter_map,
    map_frame,
)
from client.models import LINK_STATUSES, LINK_TYPES, TrustMap
from components.core.cache.data import CACHE_TTL_S

#: Maps and filtered views kept at once: a few maps each seen with a handful of filter settings.
MAP_MAX_ENTRIES = 64
VIEW_MAX_ENTRIES = 256


@dataclass(frozen=True)
class MapTable:
    """A map's referring domains as a frame, and the values its filters offer."""

    digest: str
    frame: pd.DataFrame
    link_types: list[str]
    statuses: list[str]


@dataclass(frozen=True)
class MapView:
    """The rows that meet the filters and the four charts drawn from them."""

    rows: pd.DataFrame
    dr_bands: go.Figure
    scatter: go.Figure
    link_types: go.Figure
    statuses: go.Figure


def map_digest(trust_map: TrustMap) -> str:
    """The map's content as a short key: equal for equal maps, whoever fetched them."""
    return hashlib.blake2b(trust_map.model_dump_json().encode(), digest_size=16).hexdigest()


@st.cache_resource(ttl=CACHE_TTL_S, max_entries=MAP_MAX_ENTRIES, show_spinner=False)
def _map_table(digest: str, _trust_map: TrustMap) -> MapTable:
    frame = map_frame(_trust_map)
    return MapTable(
        digest, frame, choices(frame, "link_type", LINK_TYPES), choices(frame, "status", LINK_STATUSES)
    )


def map_table(trust_map: TrustMap) -> MapTable:
    """The map's frame and filter choices, built once per map content."""
    return _map_table(map_digest(trust_map), trust_map)


@st.cache_resource(ttl=CACHE_TTL_S, max_entries=VIEW_MAX_ENTRIES, show_spinner=False)
def _map_view(
    digest: str,
    link_types: tuple[str, ...],
    statuses: tuple[str, ...],
    min_dr: int,
    max_spam: float,
    _frame: pd.DataFrame,
) -> MapView:
    rows = filter_map(_frame, MapFilters(link_types, statuses, min_dr, max_spam))
    return MapView(
        rows=rows,
        dr_bands=inert_figure(dr_band_chart(dr_band_counts(rows), title="DR of the referring domains")),
        scatter=inert_figure(importance_scatter(rows)),
        link_types=inert_figure(breakdown_chart(breakdown(rows, "link_type"), title="Link types")),
        statuses=inert_figure(breakdown_chart(breakdown(rows, "status"), title="Link status")),
    )


def map_view(table: MapTable, filters: MapFilters) -> MapView:
    """The rows ``filters`` keep and their charts, built once per map content and filter values."""
    return _map_view(
        table.digest, filters.link_types, filters.statuses, filters.min_dr, filters.max_spam, table.frame
    )


def clear() -> None:
    """Forget every built view (tests that count what a first view builds start from nothing)."""
    _map_table.clear()
    _map_view.clear()
