"""The stack floor with the app's other libraries loaded: what the app's own code costs above them.

The same page as ``bench/stack_app.py`` (one line, one small table, one small plotly chart), in a
server that has also imported what every app server imports before it draws a Trust Map: httpx,
pydantic with pydantic-settings, tldextract with its bundled suffix list read, SQLAlchemy with its ORM
and an SQLite engine, and redis-py. Beside the stack floor it shows how much of the app's memory is
these libraries (chosen for the job and kept) and how much is the app itself. Reported, no target.
"""

import httpx  # noqa: F401
import pandas as pd
import plotly.graph_objects as go
import pydantic  # noqa: F401
import pydantic_settings  # noqa: F401
import redis  # noqa: F401
import sqlalchemy
import sqlalchemy.orm
import streamlit as st
import tldextract


@st.cache_resource
def _libraries_in_use() -> str:
    """Use each library once, as the app does on its first page: a domain parsed, a database opened."""
    parsed = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)("www.a.example.co.uk")
    with sqlalchemy.create_engine("sqlite://").connect() as connection:
        connection.execute(sqlalchemy.text("select 1"))
    return parsed.top_domain_under_public_suffix


st.title("Library floor page")
_libraries_in_use()
frame = pd.DataFrame({"domain": ["a.example", "b.example", "c.example"], "dr": [71, 54, 38]})
st.dataframe(frame)
st.plotly_chart(go.Figure(go.Bar(x=frame["domain"], y=frame["dr"])))
