"""Each step of attention, defined once: stage registry, data step and figures (no Streamlit)."""
