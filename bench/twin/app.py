"""The app's slowest interactions in bare Streamlit: the fair floor of each (issues 21, 23).

Each page draws, element for element, what one interaction of the app redraws, with the
app's own figures (the same traces, labels and sizes, built by the same figure functions)
and plain Streamlit calls for the rest: no frame (CSS, scripts), no guards, no text
alternatives, no caches, no live class, no menu. Its widgets carry the app's keys, so the
benches that drive the app drive this as a checkout of its own:

    python -m bench.pages.bench_labs --root . --root bench/twin --only "token pick"
    python -m bench.pages.browser_rest --root . --root bench/twin --only Scaling

- ``/real-model`` and ``/decoder``: a gallery, "From one token" (token and target select
  boxes, the view's control, the every-head grid, two paragraphs, the ranking table) and a
  head's stages (layer and head boxes, a caption, the stage control over one panel; Scores:
  the clickable grid, the pair's boxes, the breakdown, CSV and code; Softmax: the weights,
  the row's box, the step table, its caption, the stability box, CSV and code), each part
  in a fragment as in the app. Random numbers, a real sentence's size.
- ``/inputs``: the walkthrough's first page: title, formula and words, the tokens, the
  mode and the three sizes, the seed, four grid editors (each with its name, its fill
  buttons and its paste box) and the preview of the weights with its Numbers box. A fill
  or new tokens give only the grids they change a new key, as the app does.
- ``/scores`` and ``/scaling``: a page switch between two walkthrough pages. Each draws
  the stage's title, formula and words, the app's own view of the stage (not a copy: the
  page switch's question is what the app's frame and menu add), Previous / Next, and
  the menu as Streamlit's own page links in the sidebar (one script run a switch), and
  the sidebar's "Load an example".
- ``/multi-head``: the whole lab page as a head count change redraws it (the scenario
  from ``?s=``): the lab's own split and heads figures, its captions and texts, the open
  head's stage through the walkthrough's own view, and the closed boxes below.
- ``/real-model`` and ``/decoder`` draw new numbers for a new sentence (seeded on it).
- ``/scaling-lab``: the d_k slider and the seed in a fragment, each column's chart (the
  lab's own combined figure), heading, caption and four metrics, and the curves.
- ``/training``: the Training lab (issue 33): its six settings, the caption, the loss and
  wrong rows' gradient charts, the step slider in a fragment over both runs' weights and
  the rows' largest weights, the stuck rows and W_Q/W_K charts, each with its caption, the
  two open buttons and the explanation; the lab's own figure functions. Both runs are
  trained once per settings (as the app's shared runs), never drawn from a cache.

What a twin costs against the one-heatmap floor is what Streamlit and Plotly cost to draw
that content; the app's distance from its twin is what the app adds.
"""

import sys
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout's packages

from attention_core import attention
from attention_core.saturation import DK_POWERS, sample_scores, saturation_sweep
from attention_core.training import TASKS, TrainSettings, train_both
from attention_ui.decoder import figures as df
from attention_ui.draw import figures as fig
from attention_ui.real_model import figures as mf
from attention_ui.scaling_lab import figures as lab_figures
from attention_ui.stages import figures as sf
from attention_ui.stages.data import Labels
from attention_ui.training_lab import figures as tf

CONFIG = {"displaylogo": False}
PATTERNS = {"sink": "first-token sink", "previous": "previous token", "same_word": "same word",
            "broad": "broad"}  # fmt: skip
LABS = {  # prefix: tokens, layers, heads, d_k, stages, grid numbers printed
    "rm": (15, 6, 12, 32, ["Q, K, V", "Scores", "Scaling", "Mask", "Softmax", "Output"], True),
    "dec": (13, 30, 9, 64, ["Q, K, V", "RoPE", "Shared K and V", "Scores", "Scaling", "Mask",
                            "Softmax", "Output"], False),
}  # fmt: skip
TEXTS = {
    "rm": "The animal didn't cross the street because it was too tired",
    "dec": "The trophy did not fit in the suitcase because it was too",
}  # as bench_labs


def chart(figure, key: str, numbers: str) -> None:
    """The figure as the app sends it (in its light theme, with its toolbar) and a closed
    Numbers box."""
    st.plotly_chart(fig.themed(figure, fig.LIGHT), key=key, theme=None, config=CONFIG)
    st.expander(f"Numbers: {numbers}").write("the table")


def tokens(n: int) -> list[str]:
    return [f"tok{i}" for i in range(n)]


def sentence(prefix: str) -> int:
    """A seed from the sentence typed: a new sentence draws new numbers everywhere."""
    return zlib.crc32(st.session_state.get(f"{prefix}_text", TEXTS[prefix]).encode())


def head_trace(prefix: str, layer: int, head: int):
    n, _, _, d_k, _, _ = LABS[prefix]
    rng = np.random.default_rng([sentence(prefix), layer * 100 + head])
    Q, K, V = (rng.normal(size=(n, d_k)) for _ in range(3))  # (n, d_k) each
    return attention(Q, K, V)


def gallery(prefix: str) -> None:
    """Every head at once, through the lab's own figures: the Real model's 72 maps; the
    Decoder's next tokens, its 270 heads' patterns and ten layers' maps. Random weights of a
    real sentence's shape, drawn anew for a new sentence."""
    n, n_layers, n_heads, *_ = LABS[prefix]
    rng = np.random.default_rng(sentence(prefix))
    weights = rng.dirichlet(np.ones(n), size=(n_layers, n_heads, n))  # (layers, heads, n, n)
    kinds = ["", *PATTERNS.values()]
    codes = rng.integers(0, len(kinds), size=(n_layers, n_heads))  # (layers, heads)
    names = [[kinds[c] for c in row] for row in codes]
    if prefix == "rm":
        st.header("All 72 heads at once")
        st.markdown("Each small map is one head's attention weights for your sentence.")
        chart(mf.gallery(weights, names, "Attention weights of every head"), "rm_gallery",
              "every head")  # fmt: skip
        st.caption(f"{int((codes > 0).sum())} of 72 heads have a clear pattern.")
        return
    st.header("What comes next")
    probs = np.sort(rng.dirichlet(np.ones(50)))[::-1][:10]
    chart(df.next_tokens_bar([f"␣tok{k}" for k in range(10)], probs, "The 10 likeliest"),
          "dec_next", "next tokens")  # fmt: skip
    st.caption("␣ is a space. A chatbot picks one, appends it, and runs the model again.")
    st.button("Append “␣tok0” and predict again", key="dec_append")
    st.header("All 270 heads at once")
    chart(df.pattern_map(codes, names, "What each head does on your prompt"), "dec_patterns",
          "patterns")  # fmt: skip
    st.caption("Labels computed from each head's weights. **First-token sink**: ...")
    st.segmented_control("Layers", ["Layers 1–10", "Layers 11–20", "Layers 21–30"],
                         default="Layers 1–10", required=True, key="dec_gallery_tab",
                         label_visibility="collapsed")  # fmt: skip
    chart(df.gallery(weights[:10], names[:10], 0, "Attention weights, layers 1–10"),
          "dec_gallery_0", "layers 1-10")  # fmt: skip
    st.caption("Each small map is one head. Everything above the diagonal is dark.")


@st.fragment
def token_section(prefix: str) -> None:
    n, n_layers, n_heads, _, _, printed = LABS[prefix]
    names = tokens(n)
    query = names.index(st.selectbox("Token (the query)", names, index=n - 3,
                                     key=f"{prefix}_token"))  # fmt: skip
    st.segmented_control("View", ["Weight on one key", "Strongest key per head", "Two sentences"],
                         default="Weight on one key", required=True, key=f"{prefix}_token_tab",
                         label_visibility="collapsed")  # fmt: skip
    target = names.index(st.selectbox("Key it might look at", names[: query + 1], index=1,
                                      key=f"{prefix}_target"))  # fmt: skip
    weight = np.random.default_rng([sentence(prefix), query * 50 + target]).random(
        (n_layers, n_heads)
    )
    best = np.unravel_index(np.argmax(weight), weight.shape)
    title = f"Weight from “{names[query]}” to “{names[target]}” in every head"
    grid = mf.head_grid if printed else df.head_grid
    chart(grid(weight, title, pick=best), f"{prefix}_on_target", title)
    st.markdown(f"“{names[query]}” puts at least half of its attention on “{names[target]}” in "
                f"**{int((weight >= 0.5).sum())}** heads; most in **layer {best[0] + 1}, head "
                f"{best[1] + 1}** ({weight[best]:.2f}, outlined).")  # fmt: skip
    st.markdown(f"**The heads ranked by the weight from “{names[query]}” to “{names[target]}”**")
    order = np.argsort(weight, axis=None)[::-1][:10]
    st.table(pd.DataFrame({
        "layer": order // n_heads + 1, "head": order % n_heads + 1,
        "weight": [f"{weight.flat[k]:.3f}" for k in order],
        "strongest key": [names[k % n] for k in order],
        "its weight": [f"{weight.flat[k] / 2:.3f}" for k in order],
        "pattern": ["previous token" if k % 3 else "" for k in order],
    }), hide_index=True)  # fmt: skip


@st.fragment
def head_section(prefix: str) -> None:
    _, n_layers, n_heads, _, stages, _ = LABS[prefix]
    left, right = st.columns(2)
    layer = left.selectbox("Layer", range(1, n_layers + 1), key=f"{prefix}_layer")
    head = right.selectbox("Head", range(1, n_heads + 1), key=f"{prefix}_head")
    st.caption(f"Layer {layer}, head {head}: **previous token** (measured: previous 0.71).")
    stage_panel(prefix, stages, head_trace(prefix, layer, head))
    st.button(f"Open layer {layer}, head {head} in the walkthrough", type="primary")
    st.caption("Makes this head's Q, K and V the walkthrough's scenario.")


@st.fragment
def stage_panel(prefix: str, stages: list[str], t) -> None:
    chosen = st.segmented_control("Stage", stages, default="Scores", required=True,
                                  key=f"{prefix}_stage", label_visibility="collapsed")  # fmt: skip
    labels = Labels.plain(tokens(t.scores.shape[0]))
    with st.container():
        if chosen == "Softmax":
            softmax(prefix, labels, t)
        else:  # every other stage draws what Scores draws: only Scores and Softmax are timed
            scores(prefix, labels, t)


def scores(prefix: str, labels: Labels, t) -> None:
    st.caption("Too many cells to print every number: hover over a cell for its score.")
    score_pick(prefix, labels, t)
    st.download_button("Download scores as CSV", "a,b", file_name="scores.csv")
    st.expander("Show the code").write("the code")


@st.fragment
def score_pick(prefix: str, labels: Labels, t) -> None:
    key = f"{prefix}_scores"
    chart(sf.scores_figure(labels, t, pick=(3, 5), clickable=True), f"{key}_chart", "Raw scores")
    left, right = st.columns(2)
    left.selectbox("Query (row)", labels.queries, index=3, key=f"{key}_pick_q")
    right.selectbox("Key (column)", labels.keys, index=5, key=f"{key}_pick_k")
    q, k = t.Q[3], t.K[5]  # (d_k,) each
    shown = " + ".join(f"({a:.2f})({b:.2f})" for a, b in zip(q[:4], k[:4], strict=True))
    st.markdown("**Score of query tok3 against key tok5**")
    st.latex(rf"q_{{4}} \cdot k_{{6}} = {shown} + \dots = {q @ k:.4f}")
    st.expander(f"Every term ({q.size})").write("the terms")
    st.caption(
        f"Sum of the last column: {q @ k:.4f}. The cell in row 4, column 6 of Q Kᵀ is "
        f"{t.scores[3, 5]:.4f}: the same number, from the core's matrix product."
    )


def softmax(prefix: str, labels: Labels, t) -> None:
    chart(sf.softmax_summary(labels, t), f"{prefix}_softmax_chart", "Attention weights")
    softmax_row(prefix, labels, t)
    st.download_button("Download weights as CSV", "a,b", file_name="weights.csv")
    st.expander("Show the code").write("the code")


@st.fragment
def softmax_row(prefix: str, labels: Labels, t) -> None:
    row = labels.queries.index(st.selectbox("Query row", labels.queries,
                                            key=f"{prefix}_softmax_row"))  # fmt: skip
    st.markdown(f"**Softmax of the row for query {labels.queries[row]}, step by step**")
    s = t.scores[row] * t.scale  # (n,)
    e = np.exp(s - s.max())
    st.table(pd.DataFrame({"score": [f"{x:.6g}" for x in s],
                           "e^score": [f"{x:.6g}" for x in np.exp(s)],
                           "e^(score − max)": [f"{x:.6g}" for x in e],
                           "row sum of e^(score − max)": f"{e.sum():.6g}",
                           "weight": [f"{x:.6g}" for x in t.weights[row]]},
                          index=labels.keys))  # fmt: skip
    st.caption(f"The weights of this row sum to {t.weights[row].sum():.6f}.")
    st.expander("Why subtract the maximum? Naive vs stable softmax on huge scores").write("demo")


def lab_page(prefix: str):
    def page() -> None:
        st.title("Real model" if prefix == "rm" else "Decoder")
        st.text_input("Your sentence", TEXTS[prefix], key=f"{prefix}_text")
        gallery(prefix)
        st.header("From one token: where does it look?")
        token_section(prefix)
        st.header("One head, every stage")
        head_section(prefix)

    page.__name__ = f"{prefix}_page"  # st.Page tells pages apart by their function's name
    return page


@st.fragment
def scaling_lab() -> None:
    slider, seed_box = st.columns([5, 1])
    d_k = slider.select_slider("d_k, the length of each query and key (powers of two)",
                               options=list(DK_POWERS), value=64, key="lab_dk")  # fmt: skip
    seed = int(seed_box.number_input("Random seed", 0, 1_000_000, 0, key="lab_seed"))
    sweep = saturation_sweep(DK_POWERS, n_keys=8, n_samples=2000, seed=seed)
    for column, scaled in zip(st.columns(2, gap="large"), (False, True), strict=True):
        row = sweep[(sweep["d_k"] == d_k) & (sweep["scaled"] == scaled)].iloc[0]
        with column:
            st.subheader("With scaling" if scaled else "Without scaling")
            st.caption(f"Averages over all 2000 random queries at d_k = {d_k}:")
            with st.container(horizontal=True, gap="medium"):
                for name in ("score_std", "max_weight", "entropy", "grad_norm"):
                    st.metric(name.replace("_", " "), f"{row[name]:.3f}", width="content",
                              help="what it means")  # fmt: skip
    st.caption("Dashed vermillion: without scaling. Solid blue: with 1/√d_k.")
    charts = lab_charts(seed)  # every d_k's frames, built once a seed (as the app caches them)
    chart(charts[str(d_k)], "lab_charts", "every panel")


@st.cache_resource(max_entries=8)
def lab_charts(seed: int) -> dict:
    scores = sample_scores(DK_POWERS, 8, 2000, seed)
    sweep = saturation_sweep(DK_POWERS, n_keys=8, n_samples=2000, seed=seed)
    return lab_figures.lab_figures(DK_POWERS, scores, sweep)


@st.cache_resource(max_entries=32)
def training_runs(settings: TrainSettings):
    return train_both(settings)


def training_page() -> None:
    st.title("Training")
    st.markdown("One attention head learns a task whose right attention is known. " * 3)
    task = st.selectbox("Task", list(TASKS), format_func=TASKS.get, key="tr_task")
    d_k = st.select_slider(
        "d_k, the length of each query and key",
        options=(4, 8, 16, 32, 64, 128, 256, 512),
        value=256,
        key="tr_dk",
    )
    with st.container(horizontal=True, gap="medium"):
        lr = st.select_slider(
            "Learning rate", options=(0.1, 0.3, 1.0, 3.0), value=1.0, key="tr_lr", width=180
        )
        spread = st.select_slider(
            "Starting spread",
            options=(0.25, 0.5, 1.0, 2.0),
            value=1.0,
            key="tr_spread",
            width=180,
            help="what it means",
        )
        steps = st.select_slider(
            "Steps", options=(50, 100, 200, 400, 800), value=200, key="tr_steps", width=180
        )
        seed = st.number_input("Seed", 0, 1000, 0, key="tr_seed", width=120, help="what")
    s = TrainSettings(
        task=task,
        d_k=int(d_k),
        lr=float(lr),
        spread=float(spread),
        steps=int(steps),
        seed=int(seed),
    )
    pair = training_runs(s)
    st.caption(f"After {s.steps} steps: loss {pair[0].loss[-1]:.3f}, {pair[1].loss[-1]:.3f}.")
    left, right = st.columns(2, gap="large")
    with left:
        chart(tf.loss_curves(pair), "tr_loss", "loss")
    with right:
        chart(tf.wrong_row_gradient(pair), "tr_wrong_grad", "gradient")
        st.caption("A row whose largest weight is on a wrong key needs a gradient. " * 4)
    training_steps(s, pair)
    left, right = st.columns(2, gap="large")
    with left:
        chart(tf.stuck_curves(pair), "tr_stuck", "stuck rows")
        st.caption("A stuck row puts at least 0.99 of its weight on a wrong key. " * 2)
    with right:
        chart(tf.gradient_curves(pair), "tr_grad", "gradient")
        st.caption("The whole batch's gradient to the weights. " * 4)
    st.subheader("Open this step in the walkthrough")
    st.caption("Makes this example's Q, K and V at the slider's step the app's scenario. " * 2)
    with st.container(horizontal=True):
        st.button("Open without scaling", key="tr_open_False")
        st.button("Open with 1/√d_k", key="tr_open_True")
    st.header("Why the loss is on the output")
    st.markdown("**The loss only sees the output.** A head's output is the weighted sum. " * 20)


@st.fragment
def training_steps(s: TrainSettings, pair) -> None:
    st.subheader("One example, step by step")
    every = max(1, s.steps // 50)
    step = st.slider("Training step", 0, s.steps, s.steps, step=every, key="tr_step")
    st.caption("Each row is a query, labelled with the key it should attend to. " * 2)
    for column, h in zip(st.columns(2, gap="large"), pair, strict=True):
        with column:
            chart(tf.step_weights(h, step), f"tr_weights_{h.scaled}", "weights")
            st.caption(
                f"step {step}: {h.stuck[step]} rows stuck, gradient {h.wrong_grad[step]:.0e}."
            )
    chart(tf.row_saturation(pair, step), "tr_saturation", "largest weights")
    st.caption("A hatched bar is a row whose largest weight sits on a wrong key.")


TOKENS = ["the", "cat", "sat", "on", "the", "mat"]
GRIDS = {"X": (6, 4, "e"), "W_q": (4, 3, "d"), "W_k": (4, 3, "d"), "W_v": (4, 4, "v")}


def _matrices() -> dict[str, np.ndarray]:
    ss = st.session_state
    if "twin_m" not in ss:
        rng = np.random.default_rng(0)
        ss.twin_m = {n: rng.normal(size=(r, c)).round(2) for n, (r, c, _) in GRIDS.items()}
        ss.twin_gen = dict.fromkeys(GRIDS, 0)
    return ss.twin_m


def _fill(name: str, how: str) -> None:
    r, c, _ = GRIDS[name]
    m = np.random.default_rng(len(how)).normal(size=(r, c)) if how == "random" else np.zeros((r, c))
    st.session_state.twin_m[name] = m.round(2)
    st.session_state.twin_gen[name] += 1  # only this grid is mounted anew


def _tokens() -> None:
    words = st.session_state.tokens_text.split()
    st.session_state.twin_m["X"] = np.resize(st.session_state.twin_m["X"], (len(words), 4))
    st.session_state.twin_gen["X"] += 1


def grid(name: str, labels: list[str]) -> np.ndarray:
    m = _matrices()[name]
    prefix = GRIDS[name][2]
    st.markdown(f"**{name}** ({m.shape[0]} × {m.shape[1]}): one row per token, one column each.")
    columns = [f"{prefix}{j + 1}" for j in range(m.shape[1])]
    frame = pd.DataFrame([[f"{x:.6g}" for x in row] for row in m], index=labels, columns=columns)
    text = {k: st.column_config.TextColumn(k) for k in columns}
    edited = st.data_editor(frame, key=f"grid_{name}_{st.session_state.twin_gen[name]}",
                            num_rows="fixed", column_config=text)  # fmt: skip
    for col, how in zip(st.columns(3), ("random", "zeros", "identity"), strict=True):
        col.button(how.capitalize(), key=f"fill_{name}_{how}", on_click=_fill, args=(name, how),
                   width="stretch")  # fmt: skip
    with st.expander(f"Paste {name} as text"):
        st.text_area("Rows on lines or separated by ';'", key=f"paste_{name}")
        st.button(f"Use this {name}", key=f"paste_btn_{name}")
    return edited.to_numpy(dtype=float)


def inputs_page() -> None:
    st.title("1. Inputs")
    st.latex(r"\text{Attention}(Q, K, V) = \text{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}"
             r"\right) V")  # fmt: skip
    st.markdown("Each token is a row of X; W_Q, W_K and W_V turn it into a query, a key and a "
                "value. Type your own numbers, or fill a grid.")  # fmt: skip
    st.session_state.setdefault("tokens_text", " ".join(TOKENS))
    words = st.text_input("Tokens", key="tokens_text", on_change=_tokens).split()
    st.radio("What do you want to type?", ["embeddings", "direct"], horizontal=True)
    for col, dim in zip(st.columns(3), ("d_model", "d_k", "d_v"), strict=True):
        col.number_input(dim, 1, 16, 4 if dim == "d_model" else 3, key=f"size_{dim}")
    st.columns([1, 3])[0].number_input("Seed for the random fills", 0, 2**31 - 1, 0)
    m = {"X": grid("X", words)}
    dims = [f"e{j + 1}" for j in range(4)]
    for col, name in zip(st.columns(3), ("W_q", "W_k", "W_v"), strict=True):
        with col:
            m[name] = grid(name, dims)
    t = attention(m["X"] @ m["W_q"], m["X"] @ m["W_k"], m["X"] @ m["W_v"])
    st.subheader("Live preview: the attention weights these inputs give")
    chart(sf.softmax_summary(Labels.plain(words), t), "inputs_preview", "Attention weights")


def scaling_page() -> None:
    st.title("Scaling lab")
    scaling_lab()


def walkthrough_page(key: str):
    """A walkthrough page as the app draws it, under Streamlit's own links: the stage's
    title, formula and words, then the page's own views, then Previous / Next."""

    def page() -> None:
        from attention_core.presets import default_scenario
        from attention_ui.stages.registry import BY_KEY
        from attention_ui.views import stage_views as views

        scenario = st.session_state.get("twin_scenario") or default_scenario()
        labels, t = Labels.of(scenario), scenario.trace()
        stage = BY_KEY[key]
        st.title(stage.title)
        st.latex(stage.formula(stacked=False, colour=fig.LIGHT.accent))
        st.markdown(stage.long)
        if key == "scaling":
            st.toggle("Apply the 1/√d_k scaling", value=True, key="scaled_toggle")
            st.empty()
        getattr(views, key)(labels, t, key)
        st.divider()
        row = st.container(horizontal=True, horizontal_alignment="distribute")
        for other in ("scores", "scaling"):
            row.page_link(PAGES[other], label=BY_KEY[other].title)
        with st.sidebar.container(key="nav"):  # the app's menu: Streamlit's own links here
            for other in ("scores", "scaling"):
                st.page_link(PAGES[other], label=BY_KEY[other].title)
        example_picker()

    page.__name__ = f"{key}_page"
    return page


def multi_head_page() -> None:
    """The Multi-head lab as a head count change redraws it: every part of the page, the
    lab's own figures, captions and texts, and the walkthrough's Scores view for the open
    head (as the lab draws it); the scenario comes from ``?s=`` as in the app."""
    from attention_core import PRESETS, Scenario, shapes
    from attention_core.heads import multi_head_trace
    from attention_core.presets import default_scenario
    from attention_ui.frame.keys import URL_KEY
    from attention_ui.frame.state import url_value
    from attention_ui.multi_head import figures as mhf
    from attention_ui.multi_head import lab

    ss = st.session_state
    # The same ?s= the bench opens the app with, read through the URL's one owner.
    if "mh_scenario" not in ss:
        packed = url_value(URL_KEY)
        ss.mh_scenario = Scenario.from_url(packed) if packed else None
    s = ss.mh_scenario
    if s is None:  # the app's default scenario is not ready for heads: one click makes it so
        st.title("Multi-head attention")
        lab.intro()
        st.subheader("First, one click gets your scenario ready for heads")
        row = st.container(horizontal=True)
        row.button("Make it ready for heads", key="heads_fix", type="primary", on_click=ready,
                   args=(shapes.ready_for_heads(default_scenario()),))  # fmt: skip
        row.button("Load the example", key="mh_load_example", on_click=ready,
                   args=(PRESETS["two_heads"].build(),))  # fmt: skip
        st.expander("What the one click changes", expanded=True).markdown("- the fixes")
        Ws = {n: getattr(default_scenario(), f"W_{n.lower()}") for n in "QKV"}
        split = mhf.split_figure(Ws, 1, False, "Your projections today")
        st.plotly_chart(fig.themed(split, fig.LIGHT), key="mh_before_split", theme=None)
        return
    mh, labels = multi_head_trace(s), Labels.of(s)
    figures = lab.overview_figures(s, mh, labels, False)
    st.title("Multi-head attention")
    lab.intro()
    st.header("Split the projections into heads")
    choices = [n for n in shapes.head_choices(s) if n <= 8]

    def on_heads() -> None:
        ss.mh_scenario = shapes.with_heads(ss.mh_scenario, int(ss.n_heads_choice))

    ss.setdefault("n_heads_choice", s.n_heads)
    st.segmented_control("Number of heads", choices, key="n_heads_choice", required=True,
                         on_change=on_heads)  # fmt: skip
    st.caption(lab.split_caption(mh))
    for name, key in (("split", "mh_split"), ("small", "mh_small")):
        if name == "small":
            st.header("Every head's attention weights")
            st.caption("Rows are queries, columns keys. One colour scale for all.")
        st.plotly_chart(fig.themed(figures[name], fig.LIGHT), key=key, theme=None, config=CONFIG)
        st.expander("Numbers: every panel").write("the tables")
    mh_head(labels, mh)
    st.header("Concatenate, then W_O")
    st.markdown("The heads' outputs are laid side by side, and W_O mixes them back.")
    st.expander("Show Concat × W_O = Output, and the residual X + output")
    st.expander("The example: two heads")
    lab.convention()
    st.expander("Show the code").write("the code")
    st.divider()
    row = st.container(horizontal=True, horizontal_alignment="distribute")
    row.page_link(PAGES["scores"], label="← Previous")
    row.page_link(PAGES["scaling"], label="Next →")


def ready(scenario) -> None:
    st.session_state.mh_scenario = scenario
    st.session_state.n_heads_choice = scenario.n_heads


@st.fragment
def mh_head(labels: Labels, mh) -> None:
    from attention_ui.views import stage_views as views

    st.header("One head, stage by stage")
    heads = list(range(1, mh.n_heads + 1))
    if st.session_state.get("head", 1) not in heads:
        st.session_state["head"] = 1
    h = int(st.segmented_control("Head", heads, key="head", required=True, default=1)) - 1
    st.caption(f"Head {h + 1} works on its own columns of Q, K and V.")
    stages = ["Projections", "Scores", "Scaling", "Mask", "Softmax", "Output"]
    stage = st.segmented_control("Stage", stages, default="Scores", required=True,
                                 key="mh_stage", label_visibility="collapsed")  # fmt: skip
    with st.container(key="mh_stage_panel"):
        view = views.softmax_view if stage == "Softmax" else views.scores  # the timed two
        view(labels, mh.heads[h], f"mh_one_{stage.lower()}")
    st.button(f"Open head {h + 1} in the walkthrough", key="mh_open")


def example_picker() -> None:
    """The sidebar's "Load an example": a select box, then a button that loads it."""
    from attention_core import PRESETS

    with st.sidebar:
        choice = st.selectbox("Load an example", list(PRESETS), index=None, key="preset_choice",
                              format_func=lambda k: PRESETS[k].title,
                              placeholder="Choose an example...")  # fmt: skip
        if choice is not None:
            st.caption(PRESETS[choice].description)
            st.button("Load it", key="preset_choice_load", type="primary", on_click=load,
                      args=(PRESETS[choice].build(),))  # fmt: skip


def load(scenario) -> None:
    st.session_state.twin_scenario = scenario
    st.session_state.preset_choice = None


def home() -> None:
    st.title("Twins of the app's interactions")


st.set_page_config(layout="wide")  # as the app: its figures are sized for it
PAGES = {key: st.Page(walkthrough_page(key), title=key, url_path=key)
         for key in ("scores", "scaling")}  # fmt: skip
st.navigation([
    st.Page(home, title="Home", default=True),
    *PAGES.values(),
    st.Page(lab_page("rm"), title="Real model", url_path="real-model"),
    st.Page(lab_page("dec"), title="Decoder", url_path="decoder"),
    st.Page(scaling_page, title="Scaling lab", url_path="scaling-lab"),
    st.Page(inputs_page, title="Inputs", url_path="inputs"),
    st.Page(multi_head_page, title="Multi-head", url_path="multi-head"),
    st.Page(training_page, title="Training", url_path="training"),
], position="hidden").run()  # fmt: skip
