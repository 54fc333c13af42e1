import streamlit as st

from attention_ui import real_model_head, real_model_lab
from attention_ui.pages import BY_KEY
from attention_ui.widgets import prev_next

st.title(BY_KEY["real-model"].title)
real_model_lab.intro()
model = real_model_lab.model_or_message()
run = real_model_lab.sentence(model) if model is not None else None
if model is not None and run is not None:
    real_model_lab.gallery(run)
    real_model_lab.token_sections(model, run)
    real_model_head.one_head(model, run)
real_model_lab.explanation()
prev_next("real-model")
