import streamlit as st

from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import prev_next
from attention_ui.training_lab import lab

st.title(BY_KEY["training"].title)
lab.intro()
settings = lab.settings()
lab.results(settings, lab.trained(settings))
lab.explanation()
prev_next("training")
