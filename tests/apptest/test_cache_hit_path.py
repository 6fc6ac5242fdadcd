"""A cached Trust Map renders from ready objects: no request, no JSON parsing, no model validation."""

from __future__ import annotations

import json
from typing import Any

import httpx
import plotly.graph_objects as go
import pydantic
import pytest
from streamlit.testing.v1 import AppTest

from components.core.nav import pages
from sandbox import SandboxServer
from tests.apptest.app_pages import open_page

DOMAIN = "stripe.com"
TRUST_MAP = pages.TRUST_MAP.file


def _count_parsing(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count response bodies decoded and API models validated (the client's models only)."""
    counts = {"json": 0, "validate": 0}
    real_json = httpx.Response.json
    real_validate = pydantic.BaseModel.model_validate.__func__  # type: ignore[attr-defined]

    def json(self: httpx.Response, **kwargs: Any) -> Any:
        counts["json"] += 1
        return real_json(self, **kwargs)

    def validate(cls: type[pydantic.BaseModel], *args: Any, **kwargs: Any) -> Any:
        if cls.__module__.startswith("client."):
            counts["validate"] += 1
        return real_validate(cls, *args, **kwargs)

    monkeypatch.setattr(httpx.Response, "json", json)
    monkeypatch.setattr(pydantic.BaseModel, "model_validate", classmethod(validate))
    return counts


def _trust_map_page() -> AppTest:
    """The Trust Map page of ``DOMAIN``, after its first run."""
    at = open_page(TRUST_MAP, domain=DOMAIN)
    assert not at.exception
    return at


def test_a_cached_trust_map_is_not_parsed_again(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = _count_parsing(monkeypatch)
    at = _trust_map_page()
    assert len(at.get("plotly_chart")) >= 1
    assert counts["json"] >= 1 and counts["validate"] >= 1  # the first view did parse: the probe works
    served = live_env.state.total_requests()

    counts.update(json=0, validate=0)
    at.slider(key="map_min_dr").set_value(10).run()  # a filter change reruns the page on cached data
    at.run()
    assert not at.exception
    assert len(at.get("plotly_chart")) >= 1
    assert counts == {"json": 0, "validate": 0}
    assert live_env.state.total_requests() == served


def _count_figures_built(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts = {"figures": 0}
    real_init = go.Figure.__init__

    def init(self: go.Figure, *args: Any, **kwargs: Any) -> None:
        counts["figures"] += 1
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(go.Figure, "__init__", init)
    return counts


def _scatter_points(at: AppTest) -> int:
    """How many referring domains the Trust Map's scatter chart draws, read from what is sent."""
    figures = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    scatter = next(f for f in figures if "Importance vs DR" in json.dumps(f["layout"].get("title")))
    return sum(len(trace.get("x") or []) for trace in scatter["data"])


def test_a_rerun_draws_the_built_figures_and_a_filter_builds_new_ones(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = _count_figures_built(monkeypatch)
    at = _trust_map_page()
    charts = len(at.get("plotly_chart"))
    assert charts >= 1 and counts["figures"] >= charts  # the first view built its figures
    everything = _scatter_points(at)

    counts["figures"] = 0
    at.run()  # a rerun with nothing changed: the same charts, none built again
    assert not at.exception
    assert len(at.get("plotly_chart")) == charts
    assert counts["figures"] == 0

    at.slider(key="map_min_dr").set_value(60).run()  # other content: its own figures, not the old ones
    assert not at.exception
    assert counts["figures"] >= 1
    assert _scatter_points(at) < everything
