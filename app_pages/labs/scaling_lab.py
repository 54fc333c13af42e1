import streamlit as st

from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import prev_next
from attention_ui.scaling_lab import lab

st.title(BY_KEY["scaling-lab"].title)
lab.intro()
lab.lab()
lab.apply_to_my_scenario()
lab.explanation()
prev_next("scaling-lab")
