"""One-click demo inputs for the sandbox: a newcomer sees data without knowing what to type."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from components.core.cache.connection import Connection

#: What the buttons are introduced with unless a page says otherwise.
DEMO_DOMAIN_LABEL = "Try a demo domain:"


def _fill(key: str, value: str) -> None:
    st.session_state[key] = value


def demo_picker(
    conn: Connection,
    options: Sequence[str],
    *,
    key_prefix: str,
    label: str = DEMO_DOMAIN_LABEL,
    target_key: str = "domain",
    on_pick: Callable[[str], None] | None = None,
) -> None:
    """Buttons that fill the page's field (``target_key``) with a demo value, in sandbox mode only.

    In Live mode there is no demo data to promise, so nothing is drawn. ``on_pick`` replaces the
    plain fill when choosing a value must also change other state (e.g. leave compare mode).
    """
    if conn.mode != "sandbox":
        return
    st.caption(label)
    cols = st.columns(len(options))
    for col, value in zip(cols, options, strict=True):
        callback, args = (on_pick, (value,)) if on_pick else (_fill, (target_key, value))
        col.button(value, key=f"{key_prefix}_{value}", on_click=callback, args=args, width="stretch")
