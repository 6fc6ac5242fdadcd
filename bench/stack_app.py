"""The stack's own floor: one line, one small table and one small plotly chart, nothing of the app.

Side by side with the bare page it shows what Streamlit's table and chart front-end and the
pandas/plotly imports cost by themselves, before any of the app's code.
"""

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

st.title("Stack floor page")
frame = pd.DataFrame({"domain": ["a.example", "b.example", "c.example"], "dr": [71, 54, 38]})
st.dataframe(frame)
st.plotly_chart(go.Figure(go.Bar(x=frame["domain"], y=frame["dr"])))
