"""A small mutation check: each mutant below must make its fast test selection fail.

Run it with ``python tests/mutation/run_mutants.py`` (``make test`` does, after pytest).

A mutant is one single-line edit of the app that a learner would notice as wrong numbers
or wrong labels (a flipped causal mask, axis labels swapped, softmax without its stable
shift, ...). The script copies the source tree to a temporary folder once, and for each
mutant writes the edit into that copy, runs the mutant's tests with pytest, and puts the
file back. The working tree is never touched. It fails when:

- a mutant survives (its tests still pass): a hole in the tests;
- a mutant's ``old`` text is not found exactly once in its file: the code moved or changed,
  so the table must follow (better a loud failure than a mutant that silently tests nothing);
- the selected tests do not pass on the unmutated copy, or pytest cannot run them (a
  renamed test would otherwise count as a "kill").

When a refactor moves code, update ``path`` and ``old`` (and the ``tests``) in MUTANTS.
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# What the tests need from the tree; everything else (the venv, git, caches) stays behind.
# bench/ and .streamlit/: a protocol test's phone and its server's settings.
COPY = ("app.py", "pyproject.toml", "app_pages", "assets", "attention_core", "attention_ui",
        "tests", "bench", ".streamlit")  # fmt: skip
SKIP = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".hypothesis", "*.pyc")
PYTEST = ("-x", "-q", "-p", "no:cacheprovider", "-m", "not e2e", "--no-header", "-o", "addopts=")
KILLED, SURVIVED = 1, 0  # pytest exit codes: some test failed / all passed


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str  # relative to the repository root
    old: str  # exact text, found exactly once in ``path``
    new: str
    tests: tuple[str, ...]  # test files or node ids: the fast selection that must fail


MUTANTS = (
    Mutant(
        "backward: softmax's Jacobian with the wrong sign of w w^T",
        "attention_core/backward.py",
        "return weights * (d_weights - through)",
        "return weights * (d_weights + through)",
        ("tests/core/test_backward.py",),
    ),
    Mutant(
        "backward: the score gradient forgets the 1/sqrt(d_k) factor",
        "attention_core/backward.py",
        "d_scores = d_scaled * trace.scale",
        "d_scores = d_scaled",
        ("tests/core/test_backward.py",),
    ),
    Mutant(
        "backward: dK from the keys instead of the queries",
        "attention_core/backward.py",
        "dK = _t(d_scores) @ trace.Q",
        "dK = _t(d_scores) @ trace.K[..., : trace.Q.shape[-2], :]",
        ("tests/core/test_backward.py",),
    ),
    Mutant(
        "trainer climbs the loss on W_K",
        "attention_core/training/trainer.py",
        "W_k = W_k - s.lr * dW_k",
        "W_k = W_k + s.lr * dW_k",
        ("tests/core/test_training.py",),
    ),
    Mutant(
        "trainer counts rows saturated on the right key as stuck",
        "attention_core/training/trainer.py",
        "np.sum((top >= SATURATED) & ~right)",
        "np.sum((top >= SATURATED) & right)",
        ("tests/core/test_training.py",),
    ),
    Mutant(
        "causal mask lets queries see the future",
        "attention_core/masks.py",
        "return np.tril(np.ones((n, n), dtype=bool))",
        "return np.triu(np.ones((n, n), dtype=bool))",
        ("tests/core/test_core_reference.py",),
    ),
    Mutant(
        "padding mask keeps one padding key",
        "attention_core/masks.py",
        "mask[:, :n_valid] = True",
        "mask[:, : n_valid + 1] = True",
        ("tests/core/test_core_reference.py",),
    ),
    Mutant(
        "Scores figure with its row and column labels swapped",
        "attention_ui/stages/figures.py",
        "return fig.heatmap(t.scores, labels.queries, labels.keys,",
        "return fig.heatmap(t.scores, labels.keys, labels.queries,",
        ("tests/figures/test_stage_figure_axes.py",),
    ),
    Mutant(
        "link decoder without its alphabet check",
        "attention_core/scenario.py",
        "if not text.startswith(URL_PREFIX) or not _URL_ALPHABET.fullmatch(",
        "if not text.startswith(URL_PREFIX) or not _URL_ALPHABET.match(",
        (
            "tests/core/test_core_scenario.py::test_a_link_with_characters_base64_would_skip_is_refused",
        ),
    ),
    Mutant(
        "softmax without subtracting the row maximum",
        "attention_core/softmax.py",
        "e = x - x_max  #",
        "e = x + 0.0  #",
        ("tests/core/test_core_properties.py",),
    ),
    Mutant(
        "scores multiplied by sqrt(d_k) instead of 1/sqrt(d_k)",
        "attention_core/attention.py",
        "scale = 1.0 / np.sqrt(d_k) if scaled else 1.0",
        "scale = np.sqrt(d_k) if scaled else 1.0",
        ("tests/core/test_core_lessons.py",),
    ),
    Mutant(
        "softmax over the queries (columns) instead of each row",
        "attention_core/attention.py",
        "weights = softmax(masked_scores, axis=-1)",
        "weights = softmax(masked_scores, axis=0)",
        ("tests/core/test_core_reference.py",),
    ),
    Mutant(
        "dot-product breakdown adds instead of multiplying",
        "attention_core/attention.py",
        "return q * k  # (d_k,)",
        "return q + k  # (d_k,)",
        ("tests/core/test_core_errors.py::test_dot_product_terms",),
    ),
    Mutant(
        "saturation shortcut draws |q| with one degree of freedom too many",
        "attention_core/saturation.py",
        ".chisquare(d_k, n_samples)",
        ".chisquare(d_k + 1, n_samples)",
        ("tests/core/test_saturation.py::test_shortcut_matches_direct_monte_carlo",),
    ),
    Mutant(
        "next-token score drops the last key (off by one at the grid's edge)",
        "attention_core/trained/patterns.py",
        "ok = (keys >= 0) & (keys < W.shape[1])",
        "ok = (keys >= 0) & (keys < W.shape[1] - 1)",
        ("tests/core/test_pretrained_patterns.py",),
    ),
    Mutant(
        "previous-token score drops the first key",
        "attention_core/trained/patterns.py",
        "ok = (keys >= 0) & (keys < W.shape[1])",
        "ok = (keys > 0) & (keys < W.shape[1])",
        ("tests/core/test_pretrained_patterns.py",),
    ),
    Mutant(
        "patterns drop the last valid token before the padding",
        "attention_core/pretrained/patterns.py",
        "W = W[:n_valid, :n_valid]",
        "W = W[: n_valid - 1, : n_valid - 1]",
        ("tests/core/test_pretrained_patterns.py",),
    ),
    Mutant(
        "tiny weights printed as 2.687e−04 again",
        "attention_ui/draw/figures.py",
        "right_margin=70, fixed=True)",
        "right_margin=70, fixed=False)",
        ("tests/figures/test_teacher_figures.py",),
    ),
    Mutant(
        "score breakdown starts on the smallest score",
        "attention_ui/stages/data.py",
        "i, j = np.unravel_index(np.argmax(t.scores), t.scores.shape)",
        "i, j = np.unravel_index(np.argmin(t.scores), t.scores.shape)",
        ("tests/pages/test_breakdown_start.py",),
    ),
    # The decoder (issue 23): each is killed by tests that need no model (a tiny GGUF file
    # and an independent reference, tests/core/test_decoder_parts.py).
    Mutant(
        "RoPE turns every pair the wrong way",
        "attention_core/decoder/rope.py",
        "return np.concatenate([-X[..., half:], X[..., :half]], axis=-1)",
        "return np.concatenate([X[..., half:], -X[..., :half]], axis=-1)",
        ("tests/core/test_decoder_parts.py",),
    ),
    Mutant(
        "llama.cpp's row order of W_q left in place (RoPE then pairs the wrong dimensions)",
        "attention_core/decoder/convert.py",
        "W = unpermute(W, config.n_heads)",
        "W = W",
        ("tests/core/test_decoder_parts.py",),
    ),
    Mutant(
        "grouped queries interleaved (query head h reads K/V head h % 3, not h // 3)",
        "attention_core/decoder/llama.py",
        "return head // self.group",
        "return head % self.n_kv_heads",
        ("tests/core/test_decoder_parts.py",),
    ),
    Mutant(
        "decoder heads without their causal mask",
        "attention_core/decoder/llama.py",
        "return attention(Q[:, head], K[:, g], V[:, g], mask=mask)",
        "return attention(Q[:, head], K[:, g], V[:, g], mask=None)",
        ("tests/core/test_decoder_parts.py",),
    ),
    Mutant(
        "a static table's row labels unescaped (a typed **token** prints bold)",
        "attention_ui/frame/widgets.py",
        "shown.index = [md_escape(str(v)) for v in frame.index]",
        "shown.index = [str(v) for v in frame.index]",
        ("tests/pages/test_widgets.py",),
    ),
    Mutant(
        "a phone grid prints numbers wider than its columns",
        "attention_ui/draw/phone.py",
        "return max([PHONE_MIN_CELL, *(text_px(t, PHONE_FONT) + 2 for t in texts)])",
        "return PHONE_MIN_CELL",
        ("tests/figures/test_narrow_figures.py",),
    ),
    Mutant(
        "a grid that hides its numbers still says they are printed",
        "attention_ui/draw/figures.py",
        'return all(trace.texttemplate for trace in figure.data if trace.type == "heatmap")',
        "return True",
        ("tests/figures/test_narrow_figures.py",),
    ),
    Mutant(
        "the live hub swallows a watch file it cannot write",
        "attention_ui/classroom/hub.py",
        "self._watch_error = error",
        "pass",
        ("tests/live/test_hub_watch_file.py",),
    ),
    Mutant(
        "the live hub keeps a watch-file error after the file is written again",
        "attention_ui/classroom/hub.py",
        "self._watch_error = None",
        "pass",
        ("tests/live/test_hub_watch_file.py",),
    ),
    Mutant(
        "the class's results write a multiple choice as the option's number",
        "attention_ui/classroom/questions.py",
        "return tr(choices.option(int(v) - 1))",
        'return f"{v:.6g}"',
        ("tests/live/test_results_csv.py",),
    ),
    Mutant(
        "CSV lines end in LF, so a field holding a lone CR is left unquoted",
        "attention_core/csv_rows.py",
        "csv.writer(buf).writerows(rows)",
        'csv.writer(buf, lineterminator="\\n").writerows(rows)',
        ("tests/live/test_results_csv.py",),
    ),
    Mutant(
        "the join address is rebuilt from the hostname and loses an IPv6 address's brackets",
        "attention_ui/frame/address.py",
        "return JoinAddress(f\"{scheme}://{parts.netloc.rpartition('@')[2]}\", True)",
        'return JoinAddress(f"{scheme}://{host}:{port}", True)',
        ("tests/live/test_join_address.py",),
    ),
    Mutant(
        "a room driven without its secret (a student's address changes the class)",
        "attention_ui/classroom/rooms.py",
        'if not hmac.compare_digest(record["secret"], _digest(secret)):',
        "if False:",
        ("tests/live/test_rooms.py",),
    ),
    Mutant(
        "the join limiter keys a device by the header it wrote itself",
        "attention_ui/classroom/rooms.py",
        "return entries[-1]",
        "return entries[0]",
        ("tests/live/test_rooms.py",),
    ),
    Mutant(
        "the room's page pulls a teacher back on every run (Exit presentation bounces)",
        "attention_ui/live/seats.py",
        "    if room.version == s.applied or s.pending:",
        "    if s.pending:",
        ("tests/live/test_live_lesson.py",),
    ),
    Mutant(
        "a student who leaves the teacher's page is pulled back to it",
        "attention_ui/live/seats.py",
        "        explore()",
        "        pass",
        ("tests/live/test_live_lesson.py",),
    ),
    Mutant(
        "the projector shows the class's counts before the reveal",
        "attention_ui/live/ask_console.py",
        "        if q.counts_public:",
        "        if True:",
        ("tests/live/test_live_pages.py",),
    ),
    Mutant(
        "a one-cell question is told about a whole row",
        "attention_core/exercises/checker.py",
        "    if answer.size == 1:",
        "    if False:",
        ("tests/core/test_cell_verdicts.py",),
    ),
    Mutant(
        "the heads fix writes K where Q was typed",
        "attention_core/shapes.py",
        "X = np.hstack([wide(Q), wide(K), wide(V)])",
        "X = np.hstack([wide(K), wide(Q), wide(V)])",
        ("tests/core/test_scenario_heads.py",),
    ),
    Mutant(
        "a heatmap's rows keep the old 52 px whatever its columns get",
        "attention_ui/draw/figures.py",
        '"height": top + 10 + max(M.shape[0] * side,',
        '"height": top + 10 + max(M.shape[0] * 52,',
        ("tests/figures/test_square_cells.py",),
    ),
    Mutant(
        "a phone's grid keeps PHONE_CELL rows when its columns are squeezed",
        "attention_ui/draw/phone.py",
        "row = min(PHONE_CELL, plot / n_cols)",
        "row = PHONE_CELL",
        ("tests/figures/test_square_cells.py",),
    ),
    Mutant(
        "a cell left bad on Inputs goes unsaid on the other pages",
        "attention_ui/frame/widgets.py",
        "elif dropped := grids.dropped_cells():",
        "elif dropped := []:",
        ("tests/pages/test_newcomer.py",),
    ),
    # A class at its own pace (issue 32): each check counted once, and counted right.
    Mutant(
        "a practice's retried check is a new field: counted twice",
        "attention_ui/classroom/pace.py",
        'field = f"{seat_key(code, seat_id)}:{event.id}"',
        'field = f"{seat_key(code, seat_id)}:{secrets.token_hex(6)}"',
        ("tests/live/test_pace.py",),
    ),
    Mutant(
        "a practice's 'right first' counts the last check",
        "attention_ui/classroom/pace.py",
        "sum(c.verdicts[0] for c in tried)",
        "sum(c.verdicts[-1] for c in tried)",
        ("tests/live/test_pace.py",),
    ),
    Mutant(
        "a practice's cell shows its first verdict, not its last",
        "attention_ui/classroom/pace.py",
        "if self.verdicts and self.verdicts[-1]:",
        "if self.verdicts and self.verdicts[0]:",
        ("tests/live/test_pace.py",),
    ),
    Mutant(
        "a practice's slips are listed least common first",
        "attention_ui/classroom/pace.py",
        "key=lambda kv: (-kv[1], kv[0]))",
        "key=lambda kv: (kv[1], kv[0]))",
        ("tests/live/test_pace.py",),
    ),
    Mutant(
        "two wrong tries on a step are not stuck yet",
        "attention_ui/classroom/pace.py",
        "and c.wrong >= STUCK_WRONG",
        "and c.wrong > STUCK_WRONG",
        ("tests/live/test_pace.py",),
    ),
    Mutant(
        "a rejoining seat takes back another seat's checks",
        "attention_ui/classroom/pace.py",
        "for k, v in work.items() if k.startswith(prefix)),",
        "for k, v in work.items() if True),",
        ("tests/live/test_pace.py",),
    ),
    # The Training lab (issue 33): the stuck rows' gradient, and a stopped run.
    Mutant(
        "the Training lab's wrong-rows gradient taken over the right rows",
        "attention_core/training/trainer.py",
        "return float(np.median(per_row[wrong])) if wrong.any()",
        "return float(np.median(per_row[~wrong])) if wrong.any()",
        ("tests/core/test_training.py",),
    ),
    Mutant(
        "a stopped training kept as the finished run",
        "attention_ui/training_lab/runs.py",
        "            if self.training.finished:",
        "            if True:",
        ("tests/pages/test_training_runs.py",),
    ),
    Mutant(
        "the Training lab trains on past a session's Stop",
        "attention_ui/training_lab/lab.py",
        "if job.finished or st.session_state.get(keys.TR_STOPPED) == s:",
        "if job.finished:",
        ("tests/pages/test_training_runs.py",),
    ),
    # A teacher's whole lesson (issue 31): a phone that missed a run is taken back to the class.
    Mutant(
        "a phone that missed the run of a page change is left where it is",
        "attention_ui/live/seats.py",
        "        s.applied = 0  # as back_to_teacher: the next follow takes everything",
        "        pass",
        ("tests/deploy/test_lost_run.py",),
    ),
    # The exercises in every language (issue 36): the one function that translates the core.
    Mutant(
        "a translated plural ignores the count",
        "attention_ui/i18n/texts.py",
        "form = ngettext(said.singular, said.plural, said.n)",
        "form = ngettext(said.singular, said.plural, 2)",
        ("tests/i18n/test_exercises_languages.py",),
    ),
    Mutant(
        "a message's sentences are joined the English way in every language",
        "attention_ui/i18n/texts.py",
        '_("{sentence} {next}").format(sentence=out, next=tr(piece))',
        '"{sentence} {next}".format(sentence=out, next=tr(piece))',
        ("tests/i18n/test_exercises_languages.py",),
    ),
    Mutant(
        "an English plural picks its form the wrong way round",
        "attention_core/i18n.py",
        "form = self.singular if self.n == 1 else self.plural",
        "form = self.plural if self.n == 1 else self.singular",
        ("tests/i18n/test_exercises_languages.py",),
    ),
    Mutant(
        "the hint is shown in English",
        "attention_ui/practice/exercises.py",
        'hint = _("Hint {i}: {text}").format(i=i, text=tr(text))',
        'hint = "Hint {i}: {text}".format(i=i, text=tr(text))',
        ("tests/i18n/test_exercises_languages.py",),
    ),
    # Issue 41, defects 8 and 9: Stop lands where the bar was; numbers beyond float64 refused.
    Mutant(
        "a stopped run is drawn as far as it trained, not where the bar showed",
        "attention_ui/training_lab/lab.py",
        "at = st.session_state.get(keys.TR_SHOWN, {}).get(s, pair[0].done)",
        "at = pair[0].done",
        ("tests/pages/test_training_runs.py",),
    ),
    Mutant(
        "a stopped run ends where it was, not at its last kept step",
        "attention_core/training/trainer.py",
        "        if last == self.done:",
        "        if True:",
        ("tests/pages/test_training_runs.py",),
    ),
    Mutant(
        "scores beyond float64 are drawn as ∞ and nan",
        "attention_core/attention.py",
        "    check_scores(trace.scores, Q, K, queries, keys)",
        "    pass",
        ("tests/core/test_overflow.py",),
    ),
    Mutant(
        "an answer whose rows add up beyond float64 is checked as numbers",
        "attention_core/exercises/answers.py",
        "        check_row_sums(M.sum(axis=1))  # the checker adds a row's weights up",
        "        pass",
        ("tests/core/test_overflow.py",),
    ),
    Mutant(
        "online softmax: the running sum is not rescaled when the maximum grows",
        "attention_core/online.py",
        "l = l * rescale + p.sum(axis=1)",
        "l = l + p.sum(axis=1)",
        ("tests/core/test_online.py",),
    ),
    Mutant(
        "online softmax: the output is rescaled with the wrong exponent",
        "attention_core/online.py",
        "acc = acc * rescale[:, None] + p @ V[start:stop]",
        "acc = acc * np.sqrt(rescale)[:, None] + p @ V[start:stop]",
        ("tests/core/test_online.py",),
    ),
    Mutant(
        "temperature: the logits multiplied by T",
        "attention_core/decoder/sampling.py",
        "scaled = z[order] / t",
        "scaled = z[order] * t",
        (
            "tests/core/test_decoder_generation.py::test_the_distribution_is_softmax_over_t_on_any_logits",
        ),
    ),
    Mutant(
        "temperature: the logits divided by T squared",
        "attention_core/decoder/sampling.py",
        "scaled = z[order] / t",
        "scaled = z[order] / t**2",
        (
            "tests/core/test_decoder_generation.py::test_the_distribution_is_softmax_over_t_on_any_logits",
        ),
    ),
    Mutant(
        "top-k: not renormalised after the cut",
        "attention_core/decoder/sampling.py",
        "p = full[:keep] / full[:keep].sum()",
        "p = full[:keep]",
        ("tests/core/test_decoder_generation.py::test_top_k_keeps_the_k_likeliest_renormalised",),
    ),
    Mutant(
        "KV cache: the new token is turned by RoPE at the previous position (drift)",
        "attention_core/decoder/cache.py",
        "config, pos = w.config, cache.n",
        "config, pos = w.config, cache.n - 1",
        (
            "tests/core/test_decoder_generation.py::test_cached_steps_on_a_tiny_model_equal_the_reference",
        ),
    ),
    Mutant(
        "KV cache: keys kept before RoPE",
        "attention_core/decoder/cache.py",
        "_, _, q, _, k, v = llama.project_heads(lw, X, config, cos, sin)",
        "_, _, q, k, _, v = llama.project_heads(lw, X, config, cos, sin)",
        (
            "tests/core/test_decoder_generation.py::test_cached_steps_on_a_tiny_model_equal_the_reference",
        ),
    ),
    Mutant(
        "an equation's matrices squeezed under their printed numbers",
        "attention_ui/stages/figures.py",
        "held=True,  # a third of a page: scrolled, never squeezed under its numbers",
        "held=False,",
        ("tests/figures/test_legible_layouts.py",),
    ),
    Mutant(
        "a wide grid on a phone keeps its column labels across, run together",
        "attention_ui/draw/phone.py",
        "angle, top = top_room(labels, PHONE_FONT, min(column, PHONE_CELL))",
        "angle, top = top_room(labels, PHONE_FONT, PHONE_CELL)",
        ("tests/figures/test_legible_layouts.py",),
    ),
    Mutant(
        "an answer whose Send reached a new session (a lost process) is never counted",
        "attention_ui/live/ask_phone.py",
        "if pressed and mine is None and not q.revealed:",
        "if False:",
        ("tests/state/test_lost_process.py",),
    ),
)


def copy_tree(dest: Path) -> None:
    dest.mkdir(parents=True)
    for name in COPY:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=SKIP)
        else:
            shutil.copy2(src, dest / name)
    # The fetched models (read only, hundreds of MB) are linked, not copied: a selected test
    # that needs one runs in the copy as in the tree. Under CI a missing model fails such a
    # test, so without the link a mutant's own baseline would fail on a clean clone.
    models = REPO / ".model"
    if models.is_dir():
        (dest / ".model").symlink_to(models.resolve(), target_is_directory=True)


def run_pytest(tree: Path, args: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    # No bytecode: a mutant and its undo can land in the same second with the same size,
    # and a stale .pyc would then run the wrong code.
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", *PYTEST, *args],
        cwd=tree, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip


def read_target(root: Path, mutant: Mutant) -> str:
    """The text of the mutant's file under ``root``; exits if ``old`` is not there once."""
    target = root / mutant.path
    if not target.is_file():
        raise SystemExit(f"mutant {mutant.name!r}: {mutant.path} does not exist (moved?)")
    text = target.read_text()
    count = text.count(mutant.old)
    if count != 1:
        raise SystemExit(
            f"mutant {mutant.name!r}: {mutant.old!r} occurs {count} times in {mutant.path} "
            "(it must occur exactly once): update the table in tests/mutation/run_mutants.py"
        )
    return text


def apply(tree: Path, mutant: Mutant) -> str:
    """Write the mutant into the copy; return the original text (to put back)."""
    original = read_target(tree, mutant)
    (tree / mutant.path).write_text(original.replace(mutant.old, mutant.new))
    return original


def check_selections_pass(tree: Path, mutants: tuple[Mutant, ...]) -> None:
    """Every selection passes on the unmutated copy (one pytest run for all of them), so a
    failure later is the mutant's doing."""
    selection = tuple(dict.fromkeys(t for m in mutants for t in m.tests))
    result = run_pytest(tree, selection)
    if result.returncode != SURVIVED:
        raise SystemExit(
            f"the unmutated tree fails `pytest {' '.join(selection)}` (exit {result.returncode}):"
            f"\n{result.stdout[-3000:]}{result.stderr[-2000:]}"
        )


def run_mutant(tree: Path, mutant: Mutant) -> tuple[bool, float]:
    """Whether the mutant is killed (its tests fail), and the seconds its tests took."""
    original = apply(tree, mutant)
    t0 = time.perf_counter()
    try:
        result = run_pytest(tree, mutant.tests)
    finally:
        (tree / mutant.path).write_text(original)
    if result.returncode not in (KILLED, SURVIVED):  # 2+: interrupted, usage error, no tests
        raise SystemExit(
            f"mutant {mutant.name!r}: pytest could not run {mutant.tests} "
            f"(exit {result.returncode}):\n{result.stdout[-3000:]}{result.stderr[-2000:]}"
        )
    return result.returncode == KILLED, time.perf_counter() - t0


def run_all(mutants: tuple[Mutant, ...], workers: int) -> list[Mutant]:
    """Run every mutant, ``workers`` at a time, each worker in its own copy of the tree;
    return the survivors. The unmutated check runs alongside the first mutants."""
    with tempfile.TemporaryDirectory(prefix="attention-mutants-") as tmp:
        trees: queue.Queue[Path] = queue.Queue()
        for n in range(workers):
            copy_tree(Path(tmp) / str(n))
            trees.put(Path(tmp) / str(n))

        def in_a_tree(job: Callable[[Path], object]) -> object:
            tree = trees.get()
            try:
                return job(tree)
            finally:
                trees.put(tree)

        with ThreadPoolExecutor(workers) as pool:
            baseline = pool.submit(in_a_tree, lambda t: check_selections_pass(t, mutants))
            futures = {m: pool.submit(in_a_tree, lambda t, m=m: run_mutant(t, m)) for m in mutants}
            baseline.result()  # raises SystemExit first if the selections do not pass
            survivors = []
            for mutant, future in futures.items():
                killed, seconds = future.result()  # type: ignore[misc]
                print(f"{'killed  ' if killed else 'SURVIVED'} {seconds:5.1f} s  {mutant.name}",
                      flush=True)  # fmt: skip
                if not killed:
                    survivors.append(mutant)
    return survivors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only mutants whose name contains this text")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1, help="parallel workers")
    args = parser.parse_args(argv)
    mutants = tuple(m for m in MUTANTS if args.k.lower() in m.name.lower())
    for mutant in mutants:  # a stale table fails before anything runs
        read_target(REPO, mutant)
    t0 = time.perf_counter()
    survivors = run_all(mutants, max(1, min(args.j, len(mutants) + 1)))
    print(f"{len(mutants) - len(survivors)} of {len(mutants)} mutants killed "
          f"in {time.perf_counter() - t0:.0f} s")  # fmt: skip
    for mutant in survivors:
        print(f"survived: {mutant.name}: {mutant.path}: {mutant.old!r} -> {mutant.new!r}; "
              f"`pytest {' '.join(mutant.tests)}` still passes")  # fmt: skip
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
