import streamlit as st

from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import prev_next
from attention_ui.real_model import head, lab

st.title(BY_KEY["real-model"].title)
lab.intro()
model = lab.model_or_message()
run = lab.sentence(model) if model is not None else None
if model is not None and run is not None:
    lab.gallery(run)
    lab.token_sections(model, run)
    head.one_head(model, run)
lab.explanation()
prev_next("real-model")
