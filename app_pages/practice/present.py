import streamlit as st

from attention_ui.pages import BY_KEY

st.title(BY_KEY["present"].title)
st.info("Coming soon.")
