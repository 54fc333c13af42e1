import streamlit as st

from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import prev_next
from attention_ui.i18n import _
from attention_ui.training_lab import lab

page = BY_KEY["training"]
st.title(_(page.title))
lab.intro()
settings = lab.settings()
if settings is not None:  # None: a setting out of range, said above
    lab.show(settings)
lab.explanation()
prev_next("training")
