import streamlit as st

from attention_core.exercises import all_exercises
from attention_ui.frame import keys
from attention_ui.frame.pages import BY_KEY
from attention_ui.i18n import _
from attention_ui.i18n.texts import tr
from attention_ui.live import pace_phone
from attention_ui.practice import exercises as cards

page = BY_KEY["exercises"]
st.title(_(page.title))
st.markdown(
    _(
        "Work through the lessons' examples one step at a time and check each answer as you "
        "go. Type numbers separated by commas or spaces; for a matrix, put each row on its "
        "own line (or separate rows with `;`). The checker allows for the rounding a step "
        "asks for and tells you when it recognises a common slip."
    )
)

cards.init()
pace_phone.student_card()  # a class at its own pace: the seat and nickname
exercises = pace_phone.exercises_shown(all_exercises())  # there, the open ones
cards.render_progress(exercises)

# Lazy tabs: only the open exercise is drawn. Each answer box costs Streamlit a pass over the
# whole session state, so drawing all 25 steps' boxes made this page 40 ms a run; the boxes
# keep their text while hidden (persist_state="session").
tabs = st.tabs([tr(ex.short_title) for ex in exercises], key=keys.EXERCISE_TAB, on_change="rerun")
for tab, exercise in zip(tabs, exercises, strict=True):
    if tab.open is not False:  # None: not tracked, draw it
        with tab:
            cards.render_exercise(exercise)
