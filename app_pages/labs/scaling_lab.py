import streamlit as st

from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import prev_next
from attention_ui.i18n import _
from attention_ui.scaling_lab import lab

page = BY_KEY["scaling-lab"]
st.title(_(page.title))
lab.intro()
lab.lab()
lab.apply_to_my_scenario()
lab.explanation()
prev_next("scaling-lab")
