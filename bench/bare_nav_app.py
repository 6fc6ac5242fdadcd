"""The page-switch baseline: two one-line pages in Streamlit's own sidebar navigation."""

import streamlit as st


def _first() -> None:
    st.title("First page")


def _second() -> None:
    st.title("Second page")


st.navigation(
    [
        st.Page(_first, title="First page", url_path="first"),
        st.Page(_second, title="Second page", url_path="second"),
    ]
).run()
