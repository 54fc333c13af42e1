import streamlit as st

st.title("present")
st.info("Coming soon.")
