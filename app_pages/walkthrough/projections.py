import streamlit as st

st.title("projections")
st.info("Coming soon.")
