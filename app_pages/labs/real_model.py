import streamlit as st

from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import prev_next
from attention_ui.i18n import _
from attention_ui.real_model import head, lab

page = BY_KEY["real-model"]
st.title(_(page.title))
lab.intro()
model = lab.model_or_message()
run = lab.sentence(model) if model is not None else None
if model is not None and run is not None:
    lab.gallery(run)
    lab.token_sections(model, run)
    head.one_head(model, run)
lab.explanation()
prev_next("real-model")
