"""Presentation mode: the walkthrough for one scenario, one stage per screen, for a projector.

The steps are an intro (tokens and formula), Q/K/V, scores, scaling, the mask (only when the
scenario has one), softmax and output. The position lives in a widget-free session key and is
mirrored into the URL as ``?step=k`` (1-based), so a teacher can hand out a link to step 4;
a fresh session reads ``?step=`` once. Titles, words and figures come from the stage
registry (``stages``); the figures are copied and enlarged for a projector.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

import plotly.graph_objects as go
import streamlit as st

from attention_core import AttentionTrace, Scenario
from attention_ui.draw.describe import Alternative
from attention_ui.draw.text import md_escape, shape, titled
from attention_ui.frame import guard, keys, look, state
from attention_ui.frame.pages import BY_KEY, START
from attention_ui.frame.sidebar import preset_picker, shown_name, undo_control
from attention_ui.frame.widgets import link
from attention_ui.i18n import N_, _, ngettext
from attention_ui.live import ask_console, phone, projector, seats
from attention_ui.practice.slide_figures import (  # noqa: F401 (FONT_SIZE, the floors: tests)
    FONT_SIZE,
    QKV_FLOOR,
    STAGE_FLOOR,
    projector_figure,
    qkv_slide_figures,
    stage_slide_figure,
)
from attention_ui.stages import figures as sf
from attention_ui.stages.data import MASK_LABELS, MASK_NAMES, Labels
from attention_ui.stages.registry import STAGES, formula
from attention_ui.views.cache import lazy, resolve
from attention_ui.views.chart import described_by, numbers, plot, table

STEP_PARAM = keys.STEP_PARAM  # ?step=k in the URL, 1-based
STEP_KEY = keys.PRESENT_STEP  # widget-free: survives leaving the page and coming back
NEXT_KEY, BACK_KEY = "present_next", "present_back"
PRESET_KEY = "present_preset"

# A slide's figure takes the screen's height left below the title, formula and text (the
# server cannot know it): a CSS box max(FLOOR, 100vh - ABOVE) px high. 720 px gives 450,
# 1080 px 810. Q, K and V have a line of text above them, so less is left for them.
# (270 and 370: the tables of issue 20 and the live-class control took 9 to 16 px more.)
STAGE_ABOVE, QKV_ABOVE = 270, 370  # px (the floors: slide_figures)

# Our own static CSS (no user text in it). Streamlit removes it with the page's other
# elements, so the sidebar comes back on every other page.
CSS = (
    """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapseButton"],
[data-testid="stHeader"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 1.25rem 2.5rem 1rem; max-width: 100%; }
.st-key-present_header h1 { font-size: 1.1rem; font-weight: 600; padding: 0; margin: 0;
  opacity: 0.8; }  /* 0.6 was 3.9:1 on white; 0.8 is 7:1 */
.st-key-present_stage h2 { font-size: 2.6rem; padding: 0.2rem 0 0; }
.st-key-present_text p { font-size: 1.75rem; line-height: 1.45; }
.st-key-present_text [data-testid="stCaptionContainer"] p { font-size: 1.3rem; }
.st-key-present_formula .katex { font-size: 1.9rem; }
.st-key-present_formula_long .katex { font-size: 1.45rem; }
.st-key-present_steps p, .st-key-present_steps li { font-size: 1.4rem; line-height: 1.4; }
.st-key-present_tokens p { font-size: 2.4rem; font-weight: 600; line-height: 1.3; }
.st-key-present_nav [data-testid="stProgress"] p { font-size: 1.25rem; font-weight: 600; }
.st-key-live_results_words p, .st-key-live_results_words li { font-size: 1.15rem; }  /* afar */
@media (max-width: 640px) {  /* a phone following the class: the formula on two lines fits */
  [data-testid="stMainBlockContainer"] { padding: 1rem 1rem; }
  .st-key-present_stage h2 { font-size: 1.7rem; }
  .st-key-present_text p { font-size: 1.25rem; }
  .st-key-present_formula .katex, .st-key-present_formula_long .katex { font-size: 1.1rem; }
}
"""
    + f"""
/* The figure's box. It is a flex item with a zero basis, so its height is also its minimum;
   the figure's own height (projector_figure) must not be more than the floor. */
[class*="st-key-present_chart"] {{ --room: max({STAGE_FLOOR}px, calc(100vh - {STAGE_ABOVE}px)); }}
[class*="st-key-present_chart_qkv"] {{ --room: max({QKV_FLOOR}px, calc(100vh - {QKV_ABOVE}px)); }}
[class*="st-key-present_chart"] {{ height: var(--room); min-height: var(--room); }}
</style>
"""
)

# A presentation clicker sends PageDown / PageUp, and "b" or "." to blank the screen; the
# Back and Next buttons already take the arrow keys (their ``shortcut``). This static
# script (no learner text) presses the same buttons, so a click and a clicker are one
# path, and blanks the screen in the browser alone (any key or a click brings it back).
# It is registered once per page load and does nothing on the other pages.
CLICKER = """
<script>
(() => {
  if (window.__attentionLabClicker) return;
  window.__attentionLabClicker = true;
  const press = (key) => {
    const button = document.querySelector(`.st-key-${key} button`);
    if (button && !button.disabled) button.click();
  };
  const unblank = () => document.getElementById("present-blank")?.remove();
  document.addEventListener("keydown", (event) => {
    if (!document.querySelector(".st-key-present_nav")) return;  // not presentation mode
    const target = event.target;
    if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (document.getElementById("present-blank")) {  // a blank screen: any key ends it
      event.preventDefault();
      unblank();
      return;
    }
    if (event.key === "PageDown") { event.preventDefault(); press("NEXT_KEY"); }
    else if (event.key === "PageUp") { event.preventDefault(); press("BACK_KEY"); }
    else if (event.key === "b" || event.key === "B" || event.key === ".") {
      event.preventDefault();
      const blank = document.createElement("div");
      blank.id = "present-blank";
      blank.setAttribute("role", "dialog");
      blank.setAttribute("aria-label", BLANK_LABEL);
      blank.style.cssText = "position:fixed;inset:0;background:#000;z-index:1000000;";
      blank.addEventListener("click", unblank);
      document.body.appendChild(blank);
    }
  }, true);
})();
</script>
""".replace("NEXT_KEY", NEXT_KEY).replace("BACK_KEY", BACK_KEY)
# The blank screen's name, in the session's language (a JSON string: our text, not a learner's).
BLANK_LABEL = N_("Blank screen: press any key to come back")

DIRECT_QKV = N_(
    "In this example Q, K and V are given directly, with no projection step. Each row is "
    "one token's query (what it looks for), key (what it offers) or value (what it passes on)."
)


@dataclass(frozen=True)
class Step:
    """One screen: ``stage`` is "intro" or a walkthrough stage key; ``title`` and ``short``
    are English msgids (shown with ``_()``)."""

    stage: str
    title: str
    part: str | None  # the formula part to highlight (stages.FORMULA_PARTS)
    short: str  # the one line shown beside the figure


def steps(s: Scenario, t: AttentionTrace) -> list[Step]:
    """The screens for this scenario, one per stage: the mask step only when there is a mask."""
    out = [Step("intro" if x.key == "inputs" else x.key, x.present_title, x.highlight, x.short)
           for x in STAGES]  # fmt: skip
    if s.mode == "direct":  # Q, K, V were typed: no projection to show
        out[1] = Step("projections", N_("Q, K and V (given)"), None, DIRECT_QKV)
    return [x for x in out if x.stage != "mask" or t.mask is not None]


def parse_step(raw: str | None, n: int) -> tuple[int, str | None]:
    """The 1-based step a link asks for, or 1 and a message saying why not."""
    if raw is None:
        return 1, None
    try:
        k = int(raw.strip())
    except ValueError:
        k = 0
    if 1 <= k <= n:
        return k, None
    shown = raw if len(raw) <= 20 else raw[:20] + "…"
    return 1, _(
        "The link asked for step “{shown}”, but this presentation has steps 1 to {n}."
    ).format(shown=shown, n=n)


def current_step(n: int) -> tuple[int, str | None]:
    """The step to show (1..n) and, for a bad link, why it is 1; writes ?step= to match.

    A fresh session takes the step from the URL (a shared link), and so does the browser's
    Back or Forward; otherwise the session key is the truth, moved only by Next/Back, so a
    stale URL can never move the slides.
    """
    ss = st.session_state
    notice = None
    if STEP_KEY not in ss or state.history_navigation():  # a link, or Back to an old step
        k, notice = parse_step(state.url_value(STEP_PARAM), n)
    else:
        k = min(max(int(ss[STEP_KEY]), 1), n)  # the scenario may have lost its mask meanwhile
    ss[STEP_KEY] = k
    state.set_url_value(STEP_PARAM, str(k))
    return k, notice


@guard.callback
def _go(k: int, n: int) -> None:
    """Back or Next: go to step k, the step the button was drawn for (k of the slide it was
    on, minus or plus one). A target, not a delta: should Streamlit dispatch one click twice
    (a run preempted after its callbacks, seen once on a loaded CI machine as 2 -> 4), the
    second lands on the same step."""
    k = min(max(k, 1), n)
    st.session_state[STEP_KEY] = k
    state.set_url_value(STEP_PARAM, str(k))


# ---- the page ----------------------------------------------------------------------------
def render(s: Scenario, t: AttentionTrace) -> None:
    """The whole page: one top row (title, Back, progress, Next, Exit), then the step."""
    clicker = CLICKER.replace("BLANK_LABEL", json.dumps(_(BLANK_LABEL)))
    st.html(CSS + clicker, unsafe_allow_javascript=True)  # one element: no extra gap
    if seats.following_student():
        _followed(s, t)
    else:
        _slide(s, t)


@guard.fragment
def _followed(s: Scenario, t: AttentionTrace) -> None:
    """A following student's slide and the class's watcher, in a fragment: the teacher's next
    step reruns only this, not the app's frame (a class's 110 phones rerun at once; see
    bench/RESULTS.md). Anything else the teacher changed takes a full run."""
    phone.follow_here()
    _slide(s, t)


def _slide(s: Scenario, t: AttentionTrace) -> None:
    plan = steps(s, t)
    n = len(plan)
    k, notice = current_step(n)
    step = plan[k - 1]
    _top_row(k, n, step.stage, s)
    ask_console.projector_results()  # a question out to the class: how many answered
    if notice:
        st.caption(md_escape(notice) + " " + _("Starting at step 1."))
    with st.container(key="present_stage"):
        st.header(_(step.title), anchor=False)
    long = step.part == "projections"  # the projections line is twice as wide
    with st.container(key="present_formula_long" if long else "present_formula"):
        st.latex(formula(step.part, stacked=look.phone(), colour=look.palette().accent))
    if step.stage == "intro":
        _intro(s, t, plan)
    elif step.stage == "projections":
        _qkv(step, s, t)
    else:
        _stage(step, s, t)


def _top_row(k: int, n: int, stage: str, s: Scenario) -> None:
    """Small page title, Back, "Step k of n" with a progress bar, Next, Exit."""
    with st.container(key="present_nav"):
        if seats.following_student():  # the teacher steps for the whole class: no Back, Next
            title, bar, leave = st.columns([2.2, 7.8, 1.6], vertical_alignment="center")
        else:
            widths = [1.9, 1.1, 3.6, 1.1, 1.5, 1.8]  # Back, Next, Exit whole at 1024 px
            title, back, bar, nxt, room, leave = st.columns(widths, vertical_alignment="center")
            back.button(_("Back"), key=BACK_KEY, on_click=_go, args=(k - 1, n), disabled=k == 1,
                        shortcut="Left", width="stretch")  # fmt: skip
            nxt.button(_("Next"), key=NEXT_KEY, on_click=_go, args=(k + 1, n), disabled=k == n,
                       shortcut="Right", type="primary", width="stretch")  # fmt: skip
            with room:  # Go live, or the room's code and count (the controls: the console)
                projector.projector_strip("present")
        with title, st.container(key="present_header"):
            page = BY_KEY["present"]
            st.title(_(page.title), anchor=False)
        bar.progress(k / n, text=_("Step {k} of {n}").format(k=k, n=n))
        link(START.path, _("Exit presentation"), leave, icon=":material/close:")


def _intro(s: Scenario, t: AttentionTrace, plan: list[Step]) -> None:
    left, right = st.columns([3, 2], gap="large")
    with left:
        with st.container(key="present_tokens"):
            if s.query_tokens is not None:
                st.markdown(_("Queries:") + " " + _tokens(s.queries))
                st.markdown(_("Keys:") + " " + _tokens(s.tokens))
            else:
                st.markdown(_tokens(s.tokens))
        with st.container(key="present_text"):
            st.markdown(md_escape(_(plan[0].short)))
            st.caption(_summary(s, t))
    with right, st.container(key="present_steps"):
        st.markdown(_("Today's steps:") + "\n\n" + "\n".join(
            f"{i}. {md_escape(_(x.title))}" for i, x in enumerate(plan[1:], start=2)))  # fmt: skip
    if seats.following_student():
        return  # the teacher picks the example for the class
    # Keyed by the scenario: once an example is loaded, the popover is drawn anew, closed,
    # and no longer covers the slide.
    key = f"present_example_{zlib.crc32(state.scenario_url().encode())}"
    with right, st.popover(_("Change the example"), icon=":material/swap_horiz:", key=key):
        name = md_escape(shown_name(s.name) if s.name else _("your own scenario"))
        st.markdown(_("Presenting: **{name}**").format(name=name))
        st.caption(_("Keep it, or load one of the examples (this replaces the current scenario)."))
        preset_picker(PRESET_KEY)
        undo_control("present_undo")  # the sidebar, which has it too, is hidden here


def _tokens(tokens: tuple[str, ...]) -> str:
    return " · ".join(md_escape(tok) for tok in tokens)


def _summary(s: Scenario, t: AttentionTrace) -> str:
    how = (_("embeddings X ({shape}) projected by W_Q, W_K, W_V").format(shape=shape(s.X))
           if s.mode == "embeddings" else _("Q, K and V typed directly"))  # fmt: skip
    kind = _(MASK_NAMES.get(s.mask_kind, s.mask_kind))
    mask = _("no mask") if t.mask is None else _("mask: {kind}").format(kind=kind)
    scaled = "" if s.scaled else " · " + _("scaling switched off")
    n_q, n_k = len(s.queries), len(s.tokens)
    sizes = (ngettext("{n} query", "{n} queries", n_q).format(n=n_q) + " × "
             + ngettext("{n} key", "{n} keys", n_k).format(n=n_k))  # fmt: skip
    return md_escape(
        titled(
            shown_name(s.name) if s.name else _("Your own scenario"),
            f"{sizes} · {how} · d_k = {t.d_k} · d_v = {t.V.shape[1]} · {mask}{scaled}",
        )
    )


def _qkv(step: Step, s: Scenario, t: AttentionTrace) -> None:
    words, numbers_box = st.columns([6, 1], vertical_alignment="center")
    with words, st.container(key="present_text"):
        st.markdown(md_escape(_(step.short)))
    figures = resolve(lazy(qkv_slide_figures, Labels.of(s), t))  # built once for the class
    shown = []
    for col, (name, figure) in zip(st.columns(3, gap="medium"), figures.items(), strict=True):
        with col:
            shown.append(chart(figure, f"qkv_{name}"))
    # The three tables in one popover beside the text: the slide keeps its height. Lazy:
    # sent only while it is open (three tables were a class's slowest slide to follow).
    box = numbers_box.popover(_("Numbers"), icon=":material/table:", key="present_qkv_numbers",
                              on_change="rerun")  # fmt: skip
    if box.open is False:
        return
    with box:
        for described in shown:
            st.markdown(f"**{md_escape(described.name)}**")
            table(described)


def _stage(step: Step, s: Scenario, t: AttentionTrace) -> None:
    """Text on the left, the stage's one figure on the right."""
    text, right = st.columns([1, 2], gap="large")  # the figure gets two thirds
    with text, st.container(key="present_text"):
        st.markdown(md_escape(_(step.short)))
        note = _note(step.stage, s, t)
        if note:
            st.caption(md_escape(note))
    figure = resolve(lazy(stage_slide_figure, step.stage, Labels.of(s), t))  # once for a class
    with right:
        described = chart(figure, step.stage)
    with text:  # under the words, where the slide has room: the figure fills its column
        numbers(described, f"present_fig_{step.stage}")


def chart(figure: go.Figure, name: str) -> Alternative:
    """The figure (key present_fig_<name>) filling a box as high as the screen allows (CSS);
    returns its text alternative, for its table (the box has no room for it)."""
    key = f"present_fig_{name.removeprefix('qkv_')}"
    with st.container(key=f"present_chart_{name}"):
        plot(figure, key=key, height="stretch", table=False, toolbar=False)  # projected
    return described_by(figure)


def _note(stage: str, s: Scenario, t: AttentionTrace) -> str:
    """One line with this scenario's numbers for the stage."""
    if stage == "scores":
        q, k, score = sf.strongest_pair(Labels.of(s), t)
        return _("Largest score: {score}, query “{q}” against key “{k}”.").format(
            score=f"{score:.3g}", q=q, k=k
        )
    if stage == "scaling":
        if not s.scaled:
            return _("In this scenario scaling is switched off: the factor is 1.")
        return _("Here d_k = {d_k}, so every score is multiplied by 1/√{d_k} = {scale}.").format(
            d_k=t.d_k, scale=f"{t.scale:.4g}"
        )
    if stage == "mask":
        return _("Mask in this scenario: {mask}.").format(mask=_(MASK_LABELS[s.mask_kind]))
    if stage == "softmax":
        return _("Every row sums to 1 (Σ at the right of each row).")
    return ngettext(
        "Output: one row per query, {n} number each (d_v = {d_v}).",
        "Output: one row per query, {n} numbers each (d_v = {d_v}).",
        t.output.shape[1],
    ).format(n=t.output.shape[1], d_v=t.V.shape[1])
