"""The live class: its store (SQLite or Redis), rooms, and what it adds to a page (shared)."""
