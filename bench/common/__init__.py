"""What the benches share: Chromium, real servers and when a change is drawn (``browser``),
and the tables they print (``tables``)."""
