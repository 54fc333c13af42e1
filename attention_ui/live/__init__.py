"""The live class's screens, by who sees them: the teacher's console and projector (console,
ask_console, pace_console), a student's phone (phone, ask_phone, pace_phone); a session's seat
(seats), the teacher's writes (room_control) and the app's per-run steps (hooks). The model the
screens show (rooms, hub, questions, pace, record: no Streamlit) is attention_ui/classroom/."""
