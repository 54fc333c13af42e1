"""make run's and make classroom's entry: app.py served through st.App, warmed up before it serves.

    python serve.py --server.port 8501        # any `streamlit run` option

A fresh Streamlit process imports nothing of the app until a browser connects, so the
first students of a class paid for it: NumPy, pandas, pyarrow, Pillow, the app's own
modules, the first build of each kind of Plotly figure (Plotly loads a property's
validator the first time it is set), and inspect's map of every loaded module (which
Streamlit's first element asks for). The first Start page took 1.2 to 3.4 s on this
machine, its rerun 0.05 s (load average 8 to 13; bench/RESULTS.md, "A server that has just
started").

So this process does that work first, and only then starts the server: it imports every
module of the app and builds, themes and serialises the walkthrough's figures for the
default example, the way a page does, with no session and no script run (nothing is
shown to anyone; no cache entry is made). Why before the server and not in a thread
beside it: a thread would share the GIL with the students who arrive as soon as the
health check answers (measured: their first pages got slower, p50 0.19-0.36 -> 0.45-0.74 s
at load 10-18); before it, the health check answers about as much later as the warm-up
takes (0.9-1.1 s of CPU), and then means what it says: the server is ready.
"""

from __future__ import annotations

import gc
import importlib
import inspect
import logging
import pkgutil
import sys
import time
import tomllib

PACKAGES = ("attention_core", "attention_ui")
# What Streamlit imports only on a page's first run: its tables and data editor (pandas,
# pyarrow), st.image (Pillow), st.plotly_chart (plotly.io)
LAZY = ("pandas", "pyarrow", "streamlit.dataframe_util", "PIL.Image", "plotly.io",
        "plotly.graph_objects")  # fmt: skip


def import_all() -> int:
    """Every module of the app's packages (what app.py and the pages import, and the rest)."""
    count = 0
    for name in LAZY:
        importlib.import_module(name)
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            importlib.import_module(info.name)
            count += 1
    return count


def build_figures() -> int:
    """The default example's stage figures, finished as a page finishes them (theme and
    screen), their text alternatives and their JSON: each kind of figure built once."""
    import plotly.io as pio

    from attention_core import default_scenario
    from attention_ui.draw import figures as fig
    from attention_ui.draw.describe import alternative
    from attention_ui.stages.data import Labels
    from attention_ui.stages.registry import STAGES
    from attention_ui.views.cache import finish

    scenario = default_scenario()
    trace, labels = scenario.trace(), Labels.of(scenario)
    count = 0
    # a desktop's light theme and a phone's dark one: both code paths of finish()
    for palette, phone in ((fig.LIGHT, False), (fig.DARK, True)):
        for stage in STAGES:
            figure = finish(stage.figure(labels, trace), palette, phone)
            alternative(figure)
            pio.to_json(figure.to_dict(), validate=False)
            count += 1
    return count


def serialise_table() -> None:
    """A table as st.dataframe and st.data_editor send it: pandas to Arrow, once."""
    import pandas as pd
    from streamlit import dataframe_util

    table = pd.DataFrame({"d0": [0.5, -1.0]}, index=pd.Index(["0:the", "1:cat"], name="token"))
    dataframe_util.convert_pandas_df_to_arrow_bytes(table)


def languages() -> None:
    """Which languages the picker offers: read once per process from the catalogues (Babel
    parses the template and each .po: about 0.3 s, which a session's first run paid)."""
    from attention_ui import i18n

    i18n.offered()


def index_modules() -> None:
    """The first element a process sends asks inspect.stack() whether this is a REPL
    (Streamlit's delta_generator), and inspect maps every loaded module's file on its first
    call: about 0.1 s with the app's 2000 modules loaded, later calls only map new ones."""
    inspect.stack()


class NoRuntimeNote(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "No runtime found" not in record.getMessage()


def warm() -> None:
    """Import and build; a failure is reported, never raised: the server starts regardless."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    # Importing a page module defines its st.cache_data functions, which Streamlit checks
    # against a throwaway store (and says so) while its runtime does not exist yet; the real
    # store is made at the first call, inside the server.
    # (a filter: Streamlit resets its loggers' levels when it reads its config)
    quiet = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    no_runtime = NoRuntimeNote()
    quiet.addFilter(no_runtime)
    try:
        modules = import_all()
        figures = build_figures()
        serialise_table()
        languages()
        index_modules()
    except Exception as exc:  # the warm-up must never stop the server
        print(f"warm-up failed ({exc!r}); the first students will do it", file=sys.stderr)
        return
    finally:
        quiet.removeFilter(no_runtime)
    print(f"warmed up: {modules} modules, {figures} figures in {time.perf_counter() - t0:.1f} s "
          f"({time.process_time() - cpu0:.1f} s of CPU)", file=sys.stderr)  # fmt: skip


def freeze_heap() -> None:
    """Move everything the warm-up made (modules, validators, figures' classes: ~140,000
    objects) out of the garbage collector's reach. A full collection walked them all, in
    0.5-0.85 s that stop every session of the process; a live class's step change makes
    every follower rerun at once, and that pause landed on them. Measured in a class of 120
    (bench/load/live.py, quiet machine, two pairs): follow p95 2.24 and 2.70 s without, 1.88
    and 1.85 s with; an exploring student's click p95 0.75 and 1.22 s against 0.52 and
    0.70 s. Objects made later (the sessions') are collected as before."""
    gc.collect()
    gc.freeze()


def flags(argv: list[str]) -> dict[str, object]:
    """``--server.port 8501`` and ``--server.port=8501`` (what `streamlit run` takes, and what
    the Makefile, deploy/classroom.sh and the Dockerfile pass) as st.App.run's config: each
    value read as a TOML value (8501, true), else kept as text (0.0.0.0, none)."""
    out: dict[str, object] = {}
    args = iter(argv)
    for arg in args:
        if not arg.startswith("--"):
            raise SystemExit(f"serve.py takes Streamlit's options (--server.port 1), not {arg!r}")
        name, equals, value = arg[2:].partition("=")
        if not equals:
            value = next(args, "")
        try:
            out[name] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            out[name] = value
    return out


def main(argv: list[str]) -> int:
    """Warm up, then serve app.py through Streamlit's public st.App (Streamlit 1.67), which
    `streamlit run` itself uses for an app that declares one; before it, serve.py called
    the command line's private entry point (streamlit.web.cli.main)."""
    import streamlit as st

    config = flags(argv)
    warm()
    freeze_heap()
    sys.argv = sys.argv[:1]  # the options are Streamlit's, not the script's own arguments
    st.App("app.py").run(config=config)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
