import streamlit as st

st.title("scores")
st.info("Coming soon.")
