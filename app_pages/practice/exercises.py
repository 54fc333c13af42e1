import streamlit as st

from attention_core.exercises import all_exercises
from attention_ui import practice
from attention_ui.pages import BY_KEY

st.title(BY_KEY["exercises"].title)
st.markdown(
    "Work through the lessons' examples one step at a time and check each answer as you go. "
    "Type numbers separated by commas or spaces; for a matrix, put each row on its own line "
    "(or separate rows with `;`). The checker allows for the rounding a step asks for and "
    "tells you when it recognises a common slip."
)

exercises = all_exercises()
practice.init()
practice.render_progress(exercises)

for tab, exercise in zip(st.tabs([ex.short_title for ex in exercises]), exercises, strict=True):
    with tab:
        practice.render_exercise(exercise)
