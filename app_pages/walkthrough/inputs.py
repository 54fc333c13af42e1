import streamlit as st

st.title("inputs")
st.info("Coming soon.")
