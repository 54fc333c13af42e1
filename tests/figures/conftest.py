"""With ATTENTION_LAB_NO_STREAMLIT set, importing streamlit fails in these tests.

tests/figures/test_pure_figures.py reruns this folder that way: the figure modules and
their tests must not need Streamlit.
"""

import os
import sys

if os.environ.get("ATTENTION_LAB_NO_STREAMLIT"):
    sys.modules["streamlit"] = None  # type: ignore[assignment]  # 'import streamlit' raises
