"""Where what outlives a process is kept: one small store, SQLite or Redis (no Streamlit)."""
