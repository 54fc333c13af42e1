import streamlit as st

from attention_ui import scaling_lab
from attention_ui.pages import BY_KEY
from attention_ui.widgets import prev_next

st.title(BY_KEY["scaling-lab"].title)
scaling_lab.intro()
scaling_lab.lab()
scaling_lab.apply_to_my_scenario()
scaling_lab.explanation()
prev_next("scaling-lab")
