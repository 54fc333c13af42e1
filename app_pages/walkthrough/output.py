import streamlit as st

st.title("output")
st.info("Coming soon.")
