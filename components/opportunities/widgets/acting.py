"""One click to act on the rows chosen in the table: watch them for the site (``watching``: the
dashboard keeps their history) or track them as the site's tracked keywords (``tracking``: the service
checks their positions), side by side, with what the last click did above both and, for a viewer, why
both are disabled said once."""

from __future__ import annotations

import streamlit as st

from components.core.auth import access
from components.core.cache.connection import Connection
from components.opportunities.widgets.tracking import show_track_outcome, track_chosen
from components.opportunities.widgets.watching import show_watch_outcome, watch_chosen


def act_on_chosen(conn: Connection, site: str, chosen: list[str]) -> None:
    """Watch for <site> and Track for <site> for the chosen rows, and what the last click did."""
    show_watch_outcome()
    show_track_outcome(site)
    _, locked = access.write_permission()
    watch, track = st.columns(2)
    with watch:
        watch_chosen(conn, site, chosen, locked)
    with track:
        track_chosen(conn, site, chosen, locked)
    access.read_only_note(locked)
