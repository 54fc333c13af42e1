"""A page's rerun in each language against English, in the same run (issue 36).

``python -m bench.pages.bench_languages [--repeats 15]`` (also part of ``python -m bench``):
for each page below, one AppTest session per language on the same page, rerun in turn (en,
es, fr, de, zh, en, es, ...), so every language shares the machine's load; CPU time of this
process per rerun (``time.process_time``). Also how many lookups (``_()``/``ngettext``) a
rerun makes, and one lookup's cost alone.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench import Result
from bench.common.browser import ROOT

PAGES = (
    "start",
    "scores",
    "softmax",
    "output",
    "present",
    "scaling-lab",
    "training",
    "multi-head",
    "real-model",
    "decoder",
    "exercises",
    "console",
)  # every kind of page


def _lookups() -> tuple[dict[str, int], object]:
    """Count every lookup: each _() and ngettext() asks i18n.language() once."""
    import attention_ui.frame.lang  # noqa: F401  (sets the app's source: the one counted)
    from attention_ui import i18n

    seen = {"n": 0}
    source = i18n._source[0]

    def counting() -> str:
        seen["n"] += 1
        return source()

    i18n.set_language_source(counting)
    return seen, source


def measure(repeats: int) -> tuple[dict[str, dict[str, list[float]]], dict[str, int], float]:
    """({page: {language: CPU ms per rerun}}, {page: lookups per rerun}, ns per lookup)."""
    from streamlit.testing.v1 import AppTest

    from attention_ui import i18n
    from attention_ui.frame.pages import BY_KEY

    langs = i18n.offered()
    seen, source = _lookups()
    out: dict[str, dict[str, list[float]]] = {}
    counts: dict[str, int] = {}
    try:
        for key in PAGES:
            sessions = {}
            for code in langs:
                at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
                at.query_params["lang"] = code
                at.run()
                if key != "start":
                    at.switch_page(BY_KEY[key].path).run()
                at.run()  # warm: the figure cache holds this language's figures
                sessions[code] = at
            samples: dict[str, list[float]] = {code: [] for code in langs}
            for _ in range(repeats):
                for code, at in sessions.items():
                    t0 = time.process_time()
                    at.run()
                    samples[code].append((time.process_time() - t0) * 1000)
                    assert not at.exception, (key, code)
            seen["n"] = 0
            sessions["de"].run()
            counts[key] = seen["n"]
            out[key] = samples
    finally:
        i18n.set_language_source(source)
    i18n.set_language_source(lambda: "de")
    t0 = time.perf_counter()
    for _ in range(100_000):
        i18n._("Attention weights")
    per_lookup = (time.perf_counter() - t0) * 1e9 / 100_000
    i18n.set_language_source(source)
    return out, counts, per_lookup


def run(args: argparse.Namespace) -> list[Result]:
    repeats = 5 if getattr(args, "quick", False) else 15
    samples, counts, per_lookup = measure(repeats)
    results = []
    for key, by_lang in samples.items():
        en = statistics.median(by_lang["en"])
        for code, values in by_lang.items():
            ratio = statistics.median(values) / en
            note = f"{ratio:.2f}x English; {counts[key]} lookups a rerun"
            results.append(Result(f"AppTest rerun CPU, {key} in {code}", values, note))
    results.append(Result("one _() lookup (de)", [per_lookup / 1e6], "ms; in ns: "
                          f"{per_lookup:.0f}"))  # fmt: skip
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    samples, counts, per_lookup = measure(args.repeats)
    langs = list(next(iter(samples.values())))
    print("| page | lookups a rerun | " + " | ".join(f"{c} ms" for c in langs) + " | "
          + " | ".join(f"{c} / en" for c in langs[1:]) + " |")  # fmt: skip
    print("|---" * (2 + 2 * len(langs) - 1) + "|")
    for key, by_lang in samples.items():
        med = {c: statistics.median(v) for c, v in by_lang.items()}
        print(f"| {key} | {counts[key]} | " + " | ".join(f"{med[c]:.1f}" for c in langs) + " | "
              + " | ".join(f"{med[c] / med['en']:.2f}" for c in langs[1:]) + " |")  # fmt: skip
    print(f"\nOne lookup (_('Attention weights') in German): {per_lookup:.0f} ns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
