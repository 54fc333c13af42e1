import streamlit as st

st.title("start")
st.info("Coming soon.")
