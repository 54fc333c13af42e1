"""How fast a page answers a click in Chromium, against a floor in the same run: the
walkthrough, the labs, the exercises, presentation mode."""
