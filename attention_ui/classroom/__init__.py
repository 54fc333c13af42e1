"""The live class's model: rooms, the hub, questions, the own-pace class and its record.

No Streamlit here (pyproject's import contract says so): the screens are in attention_ui/live/.
"""
