"""The drawing toolkit: base Plotly heatmaps, palettes, the text the app writes (no Streamlit)."""
