import streamlit as st

st.title("exercises")
st.info("Coming soon.")
