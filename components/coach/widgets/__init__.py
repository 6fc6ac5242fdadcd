"""The Coach page's ten tabs (Streamlit): one renderer per tab, grouped like the rules they show.

``pieces`` (shared cards and callouts), ``readings`` (Analyze, Diagnose, Actions, Track, Explain),
``audit`` (Audit backlinks), ``plans`` (Content plan, Fix, Boost) and ``partners`` (Next).
"""

from __future__ import annotations

from components.coach.widgets.audit import audit_tab
from components.coach.widgets.partners import next_tab
from components.coach.widgets.pieces import TAB_KEY, TABS
from components.coach.widgets.plans import boost_tab, content_plan_tab, fix_tab
from components.coach.widgets.readings import actions_tab, analyze_tab, diagnose_tab, explain_tab, track_tab

__all__ = [
    "TABS",
    "TAB_KEY",
    "actions_tab",
    "analyze_tab",
    "audit_tab",
    "boost_tab",
    "content_plan_tab",
    "diagnose_tab",
    "explain_tab",
    "fix_tab",
    "next_tab",
    "track_tab",
]
