"""The team's CTR curve the clicks are counted under, and a word when the one set cannot be used."""

from __future__ import annotations

import streamlit as st

from services.market import team_ctr


def team_curve() -> tuple[float, ...]:
    chosen = team_ctr()
    if chosen.problem:
        st.warning(
            f"The CTR curve in the settings cannot be used ({chosen.problem}); the default one is used."
        )
    return chosen.curve
