"""Streamlit's floors: bare Streamlit apps that do the least a page can do (a toggle that
redraws one heatmap, a text line, a page switch...). Every browser timing is a ratio
against one of them, measured in the same run."""
