"""Authority Dashboard: the entry point. Page config, the sidebar's connection settings, navigation."""

from __future__ import annotations

import gc

import streamlit as st

from components.core.auth import after_sign_in, signin
from components.core.nav import page_visits, pages
from components.core.nav.browser_history import one_step_per_action
from components.core.nav.shared_inputs import remember_shared_inputs, restore_shared_inputs
from components.core.ui.sidebar import render_sidebar
from components.core.writes.forged_clicks import audit_forged_clicks
from components.reports.shared_view import show_shared_report

st.set_page_config(page_title="Authority Dashboard", page_icon=":material/insights:", layout="wide")


@st.cache_resource(show_spinner=False)
def _freeze_start_up_objects() -> bool:
    """Once per process, after the first run: collect, then move everything alive (the imported
    modules, the first page's caches) out of the collector's reach, so later collections do not
    walk those objects again. Streamlit's own collection after every run is off (.streamlit/config.toml)."""
    gc.collect()
    gc.freeze()
    return True


# The pages and their sections are defined once, in components/core/nav/pages.py; each file lives in
# views/, named like its url_path. (Not pages/: Streamlit 1.67 would run a pages/ file without this
# entry point on a fresh server's first deep link, skipping the sidebar and the connection settings.)
# With sign-in configured, a visitor not signed in (or on no access list) gets only the page that says
# so: the gate draws it in place of every page and ends the run before any page or setting is drawn.
# A share link (?report=<token> on any address) shows that one report alone, without sign-in, and
# ends the run there: nothing below it (gate, navigation, sidebar, pages) runs for that address.
show_shared_report()
# Back undoes one action: Streamlit alone adds a history step per address change of a page switch.
one_step_per_action()
# Before the gate: a click on a control drawn disabled for this person (a forged one: Streamlit drops
# it) is recorded in the audit log, also when the gate is about to stop the run.
audit_forged_clicks()
person = signin.gate()
navigation = st.navigation(pages.navigation(), expanded=True)
if person.signed_in:  # the deep link sign-in began at, once (st.login itself returns to the start page)
    after_sign_in.land(navigation.url_path)
signin.sidebar_block(person)
render_sidebar()
page_visits.count_visit(navigation.url_path)
restore_shared_inputs(navigation.url_path)
try:
    navigation.run()
finally:
    remember_shared_inputs(navigation.url_path)
    _freeze_start_up_objects()
