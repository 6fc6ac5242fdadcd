"""Clicks on controls drawn disabled for the person: refused, and now audited.

A viewer's write controls are drawn disabled. Streamlit 1.67 drops a click that arrives for a disabled
widget anyway (only a hand-made message can send one: the browser cannot), before any callback runs
and without telling the app, so such a forged click changed nothing but left no trace in the audit
log either. ``audit_forged_clicks()`` runs once per script run, before the sign-in gate and the page,
and records each one the app can see: who clicked, which control, when.

- A control whose click only asks for a write (``writes.request_write``, ``quota_spends.request_spend``,
  ``batch.request_writes``)
  names the write in its own arguments: that request is made as if the click had been allowed, and the
  role check it starts with refuses it, audits it under the write's operation and subjects, and keeps
  the refusal for the page to show (the click is refused either way; nothing is sent or spent).
- Any other disabled control gets a row "disabled_control" naming the control as the page keyed it.

Only a person who may not write is audited: an editor's click on a control disabled while their own
write runs is a double click, which Streamlit drops quietly, as it should.

The clicks are read from Streamlit's widget state for this run (its disabled flag and the click's
trigger come from the previous run's widget registry); if a later Streamlit changes that inner shape,
this logs once per run and audits nothing, never breaking a page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

from components.core.auth import access
from components.core.cache.connection import current_connection
from components.core.writes import batch, quota_spends, writes

logger = logging.getLogger(__name__)

#: Callbacks that only ask for a write, whose arguments say which: run again, they refuse and audit it.
_REQUESTS: tuple[Callable[..., None], ...] = (
    writes.request_write,
    quota_spends.request_spend,
    batch.request_writes,
)
_FORM_SUBMITTER = "FormSubmitter:"


def _forged_clicks() -> Iterator[tuple[str, Any]]:
    """``(widget id, its metadata)`` of every click that arrived this run for a widget drawn disabled."""
    from streamlit.runtime.state.session_state_proxy import get_session_state

    widgets = get_session_state()._state._new_widget_state
    for widget_id, metadata in list(widgets.widget_metadata.items()):
        if not metadata.disabled or metadata.value_type != "trigger_value" or widget_id not in widgets.states:
            continue
        if widgets[widget_id] is True:
            yield widget_id, metadata


def control_name(widget_id: str) -> str:
    """How a row names a control: its key, or for a form's submit button its label and form."""
    from streamlit.runtime.state.common import user_key_from_element_id

    key = user_key_from_element_id(widget_id)
    if key is None:
        return "an unnamed control"
    if key.startswith(_FORM_SUBMITTER):
        # Streamlit keys it "FormSubmitter:<form>-<label>"; a form named after a domain has dashes.
        form, _, label = key[len(_FORM_SUBMITTER) :].rpartition("-")
        return f"{label} (form {form})" if form and label else key
    return key


def audit_forged_clicks() -> None:
    """Audit every click that arrived for a control drawn disabled, when the person may not write."""
    refusal = writes.role_refusal(access.current_person())
    if refusal is None:
        return
    try:
        clicks = list(_forged_clicks())
    except Exception as exc:  # an inner shape of Streamlit this module does not know: audit nothing
        logger.warning("forged clicks could not be read (%s)", type(exc).__name__)
        return
    if not clicks:
        return
    conn = current_connection()
    for widget_id, metadata in clicks:
        if metadata.callback in _REQUESTS:
            metadata.callback(*(metadata.callback_args or ()), **(metadata.callback_kwargs or {}))
        else:
            writes.refuse_click(conn, control_name(widget_id), refusal)
