import streamlit as st

st.title("scaling_lab")
st.info("Coming soon.")
