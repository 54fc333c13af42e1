"""``python -m bench.load``: a class of students at Streamlit's websocket protocol (the
driver is this package's ``__init__``)."""

from bench.load import main

raise SystemExit(main())
