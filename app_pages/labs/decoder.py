import streamlit as st

from attention_ui.decoder import compare, head, lab, temperature
from attention_ui.frame.pages import BY_KEY
from attention_ui.frame.widgets import prev_next
from attention_ui.i18n import _

page = BY_KEY["decoder"]
st.title(_(page.title))
lab.intro()
decoder = lab.decoder_or_message()
run = lab.prompt(decoder) if decoder is not None else None
if run is not None:
    lab.next_tokens(run)
    temperature.section(decoder, run)
    lab.gallery(run)
    lab.token_sections(run)
    head.one_head(run)
    compare.side_by_side(run)
lab.explanation()
prev_next("decoder")
