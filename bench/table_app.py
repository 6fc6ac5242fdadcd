"""The table floor: one line and one small ``st.dataframe``, nothing of the app.

Pages that draw a data grid but no chart are held against it: the grid's own front-end code (a
lazily loaded bundle of its own) must load and run before any table draws, whatever the app does.
"""

import pandas as pd
import streamlit as st

st.title("Table floor page")
st.dataframe(pd.DataFrame({"domain": ["a.example", "b.example", "c.example"], "dr": [71, 54, 38]}))
