"""The baseline page: Streamlit drawing one line, for side-by-side first-paint and memory ratios."""

import streamlit as st

st.title("Bare Streamlit page")
