"""Where the time goes: a CDP profile of an interaction in Chromium, and the CPU of one
rerun of every page."""
