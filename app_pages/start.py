import streamlit as st

from attention_ui.pages import BY_KEY

st.title(BY_KEY["start"].title)
st.info("Coming soon.")
