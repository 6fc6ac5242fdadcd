"""The browser's Back button: one press undoes one thing the person did, such as following a link.

Streamlit 1.67 writes the address bar from two places, and each write is a step of its own in the tab's
history (``history.pushState``):

- every query-string change the server sends while a page runs, written on the address of the page
  *being left* (the new page's address comes later). A page switch always sends at least one: the
  server drops the old page's URL-bound inputs (``?domain=``) from the address before the new page
  runs. A value the new page corrects (a tab at its default, a field filled in) sends another;
- the new page's address, once the new page is known.

So a link from ``/?domain=stripe.com`` to the History page left ``/?history_domain=…&history_tab=…``
and ``/?history_domain=…`` between the two pages: Back showed an empty Domain overview twice. Nothing a
page does on the server can avoid this, since the first write happens before any app code runs.

``one_step_per_action()`` therefore adds a small script to the page (once per browser tab) that keeps
the first history write after a click or key press as a new step and turns every later write, until
the next click or key press, into a replacement of that step. Writes after Back or Forward, or with no
action at all (the app correcting a freshly opened address), replace the current step. Streamlit
itself already replaces rather than adds when a person changes a URL-bound field, so nothing else
changes: one action, at most one step.

``run_in_browser`` draws such a script: hidden, taking no room on the page. A script never contains
text from a URL or the API unless it is percent-encoded first (see ``components/core/auth/after_sign_in.py``).
"""

from __future__ import annotations

import streamlit as st

#: Marks the app's own script elements (a test tells them from any HTML a page might show).
SCRIPT_MARK = "data-dashboard-script"

#: Installs the history rule once per tab; Streamlit keeps the tab's page alive across page switches.
ONE_STEP_PER_ACTION = """
(() => {
  if (window.__dashboardOneStepPerAction) return;
  window.__dashboardOneStepPerAction = true;
  const history = window.history;
  const push = history.pushState.bind(history);
  const replace = history.replaceState.bind(history);
  let acted = false;
  const act = (event) => { if (event.isTrusted) acted = true; };
  window.addEventListener("pointerdown", act, true);
  window.addEventListener("keydown", act, true);
  window.addEventListener("popstate", () => { acted = false; }, true);
  history.pushState = (state, unused, url) => {
    if (!acted) return replace(state, unused, url);
    acted = false;
    return push(state, unused, url);
  };
})();
"""


def run_in_browser(name: str, script: str) -> None:
    """Run ``script`` in the page (not in a frame), from an element that hides itself and its gap.

    ``name`` tells the app's scripts apart in the page; ``script`` must hold no unescaped outside text.
    """
    st.html(
        f'<style>[data-testid="stElementContainer"]:has([{SCRIPT_MARK}]) {{display: none}}</style>'
        f'<span {SCRIPT_MARK}="{name}"></span><script>{script}</script>',
        unsafe_allow_javascript=True,
    )


def one_step_per_action() -> None:
    """Draw the history rule; first in every run, so it is in place before a person can click."""
    run_in_browser("one-step-per-action", ONE_STEP_PER_ACTION)
