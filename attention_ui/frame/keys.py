"""Every session key and URL parameter the app uses, declared once, with what it holds.

``frame/url`` is the one module that reads and writes the URL (``frame/state``, the owner of
the scenario, and ``frame/language`` go through it); every other module names its keys from
here, so a key is spelled in one place and a test can list them all.
"""

from __future__ import annotations

SCENARIO = "scenario"
TRACE = "trace"
DRAFT = "draft"
INPUT_ERROR = "input_error"
URL_ERROR = "url_error"
EDITOR_GEN = "editor_gen"
EDITOR_BASE = "editor_base"
GRID_GENS = "grid_gens"
EDITOR_LABELS = "editor_labels"
FIELD_ERRORS = "field_errors"
DROPPED = "dropped_cells"
REJECTED = "rejected_text"
CURRENT_PAGE = "_current_page"
PACKED = "_packed"
PRESENT_STEP = "present_step"
UPLOAD_ERROR = "upload_error"
PREVIOUS = "previous_scenario"
OWN_NAME = "own_name"
FLASH = "flash"
NOTICE = "notice"
HEAD_STAGE = "mh_stage"
HEAD_AFTER = "mh_after"
PER_SCENARIO = "_per_scenario"
PHONE = "_phone"  # whether this session's browser is a phone's (look.phone)
PAGES = "_pages"  # (language, {page key: st.Page}): app.py's pages, made once a language
PRACTICE_PROGRESS = "practice_progress"
PRACTICE_HINTS = "practice_hints"
PRACTICE_SOLUTIONS = "practice_solutions"
PRACTICE_KEPT = "practice_kept"
PRACTICE_UPLOAD = "practice_upload"
RM_TARGET = "rm_target"
RM_SKIP_SPECIAL = "rm_skip_special"
RM_STAGE = "rm_stage"
RM_TOKEN_TAB = "rm_token_tab"
RM_TEXT_B_AUTO = "rm_text_b_auto"
RM_TOKEN_TABLE = "rm_token_table"
CALLBACK_FAILED = "callback_failed"
EXERCISE_TAB = "exercise_tab"
PAGE_CONFIG_SENT = "_page_config_sent"
LIVE = "live"
LIVE_TRIES = "live_tries"
LIVE_SHOWN = "live_shown"
LIVE_ANSWERS = "live_answers"
LIVE_COOKIE = "live_cookie"
LIVE_RETRY = "live_retry"
LIVE_WAS_STUDENT = "live_was_student"
LIVE_LINK_SHOWN = "live_link_shown"
LIVE_PACE = "live_pace"
SHORT_LINK = "short_link"
LINKED_PAGE = "linked_page"
DEC_TARGET = "dec_target"
DEC_STAGE = "dec_stage"
DEC_TOKEN_TAB = "dec_token_tab"
DEC_GALLERY_TAB = "dec_gallery_tab"
DEC_SIDE_BY_SIDE = "dec_side_by_side"
DEC_ROPE_KEY = "dec_rope_key"
DEC_DRAWN = "dec_drawn"
FOLLOWED_TOKEN = "followed_token"
LANGUAGE = "language"
LANGUAGE_PICKED = "language_picked"
LABELS_SENT = "_labels_sent"
EDITORS_STALE = "_editors_stale"
OWN_EDITS = "own_edits"

SESSION_KEYS: dict[str, str] = {
    SCENARIO: "the last valid Scenario: every page draws from it",
    TRACE: "its AttentionTrace, computed once when the scenario was set",
    DRAFT: "the Scenario the editor edits; may be invalid for a while",
    INPUT_ERROR: "why the draft is not valid (an InputError), or None",
    URL_ERROR: "why the link's ?s= could not be used, shown once per session",
    EDITOR_GEN: "bumped to give every grid editor a fresh key (re-seeds the grids)",
    EDITOR_BASE: "the matrices the grid editors were last given (edits are relative to them)",
    GRID_GENS: "each grid editor's generation, in its key: bumped only for a grid that changed",
    EDITOR_LABELS: "the query and key labels the grid editors were last given (their rows)",
    FIELD_ERRORS: "messages for inputs that could not be read at all, by field",
    DROPPED: "unreadable cells that were put back to their last number, by grid",
    REJECTED: "the text of an input that could not be read: its box shows it again, to fix",
    CURRENT_PAGE: "the page of the last run: entering a page re-seeds its widgets",
    PACKED: "the scenario and its ?s= string, packed once per scenario",
    PRESENT_STEP: "presentation mode's step (1-based); survives leaving the page",
    UPLOAD_ERROR: "why an uploaded scenario file could not be loaded",
    PREVIOUS: "the scenario the last load replaced: one step of undo brings it back",
    OWN_NAME: "the teacher named the scenario: edits keep that name",
    FLASH: "toasts for the next page (a button that also switches page would lose them)",
    NOTICE: "messages for the top of the next page, under its title (a toast would cover it)",
    HEAD_STAGE: "the multi-head lab's chosen stage (only it is drawn)",
    HEAD_AFTER: "whether the multi-head lab's concatenation and residual are open (lazy)",
    PER_SCENARIO: "results built once per valid scenario (the multi-head trace, its figures)",
    PRACTICE_PROGRESS: "the exercises' step records (attention_core.exercises.Progress)",
    PRACTICE_HINTS: "how many hints each exercise step has shown",
    PRACTICE_SOLUTIONS: "the exercises whose solution is open",
    PRACTICE_KEPT: "where this browser's exercise work is kept (practice.kept): its id, read "
    "yet, saved yet, the cookie to write, what a loaded file said",
    PRACTICE_UPLOAD: "the Exercises page's uploader of a progress file (a widget)",
    RM_TARGET: "the real-model page's target key (a widget: where the picked token may look)",
    RM_SKIP_SPECIAL: "the real-model page's 'ignore [CLS]/[SEP]' switch for top targets",
    RM_STAGE: "the real-model page's chosen stage of one head (only it is drawn)",
    RM_TOKEN_TAB: "the real-model page's chosen view of 'From one token' (only it is drawn)",
    RM_TEXT_B_AUTO: "the second sentence the page last offered: until edited, it follows the first",
    RM_TOKEN_TABLE: "the real-model page's 'every token, one per row' expander (lazy: drawn open)",
    CALLBACK_FAILED: "a widget callback raised: the next page run says so (guard.callback)",
    EXERCISE_TAB: "the Exercises page's open exercise (lazy tabs: only it is drawn)",
    PAGE_CONFIG_SENT: "st.set_page_config ran in this session (the browser keeps it)",
    LIVE: "this session's part in a live class (live.seats.Seat): teacher or student",
    LIVE_TRIES: "wrong join codes typed in this session, and when the next try is allowed",
    LIVE_SHOWN: "what the teacher's session last wrote into its room (page, step, scenario, picks)",
    LIVE_ANSWERS: "a student's answers in this session, by question: the verdict it was told",
    LIVE_COOKIE: "the control link this browser keeps (a cookie), as this session knows it",
    LIVE_RETRY: "a control link the store could not check (it was down): tried again next run",
    LIVE_WAS_STUDENT: "this session followed a class that ended: it is not offered Go live",
    LIVE_LINK_SHOWN: "the teacher asked the console to show the control link (not projected)",
    LIVE_PACE: "a student's seat in a class at its own pace: number, nickname, checks not yet sent",
    SHORT_LINK: "the short link made here: (?s= text, page, id or None, why not or None, the "
    "page's parameters)",
    LINKED_PAGE: "the page a short link named: the session's first run switches to it",
    DEC_TARGET: "the Decoder lab's target key (a widget: where the picked token may look)",
    DEC_STAGE: "the Decoder lab's chosen stage of one head (only it is drawn)",
    DEC_TOKEN_TAB: "the Decoder lab's chosen view of 'From one token' (only it is drawn)",
    DEC_GALLERY_TAB: "the Decoder lab's chosen range of layers in its gallery (only it is drawn)",
    DEC_SIDE_BY_SIDE: "the Decoder lab's 'encoder and decoder' expander (lazy: loads MiniLM)",
    DEC_ROPE_KEY: "the Decoder lab's RoPE stage: the key whose score is followed by distance",
    DEC_DRAWN: "the token ids the Decoder lab's last Append or Generate drew (said once)",
    FOLLOWED_TOKEN: "per model lab, the token its one-head stages last started from (picked above)",
    LANGUAGE: "the session's language (an offered code, attention_ui.i18n): every _() reads it",
    LANGUAGE_PICKED: "the learner picked the language: the address then always says ?lang=",
    LABELS_SENT: "per widget whose options are ids shown translated: the language its labels "
    "were last sent in (frame.language.relabelled)",
    EDITORS_STALE: "the editor's widgets that take the draft's value when next drawn (edits.seed)",
    OWN_EDITS: "how many times the learner edited the draft: a following phone that edits explores",
}
N_HEADS_WIDGET = "n_heads_choice"
FILL_SEED = "fill_seed"  # the Inputs page's seed: its random fills and the multi-head fix use it
# Widgets of the editor: dropped (and re-seeded from the draft) when the draft is replaced.
EDITOR_WIDGETS = (
    "tokens_text",
    "query_tokens_text",
    "input_mode",
    "size_d_model",
    "size_d_k",
    "size_d_v",
    "mask_kind",
    "mask_n_valid",
    "scaled_toggle",
    N_HEADS_WIDGET,
)

URL_KEY = "s"
STEP_PARAM = "step"
LAB_DK = "lab_dk"
LAB_SEED = "lab_seed"
HEAD = "head"
RM_TEXT = "rm_text"
RM_TEXT_B = "rm_text_b"
RM_TOKEN = "rm_token"
RM_LAYER = "rm_layer"
RM_HEAD = "rm_head"
DEC_TEXT = "dec_text"
DEC_TOKEN = "dec_token"
DEC_LAYER = "dec_layer"
DEC_HEAD = "dec_head"
DEC_TEMP = "dec_temp"
DEC_TOP_K = "dec_top_k"
DEC_TOP_P = "dec_top_p"
DEC_SEED = "dec_seed"
DEC_N = "dec_n"
DEC_TILE = "dec_tile"
JOIN = "join"
TEACH = "teach"
SHORT = "l"
SOFTMAX_ROW = "softmax_row"
OUTPUT_ROW = "output_row"
SOFTMAX_TILE = "softmax_tile"
TR_TASK = "tr_task"
TR_DK = "tr_dk"
TR_LR = "tr_lr"
TR_SPREAD = "tr_spread"
TR_STEPS = "tr_steps"
TR_SEED = "tr_seed"
TR_STEP = "tr_step"
TR_STOPPED = "_tr_stopped"  # the settings whose training this session stopped (or None)
TR_SHOWN = "_tr_shown"  # {settings: the step the progress bar last showed}: where Stop lands
LANG = "lang"
URL_PARAMS: dict[str, str] = {
    URL_KEY: "the whole scenario, zlib + base64 (Scenario.to_url); written on every run",
    STEP_PARAM: "presentation mode's step, 1-based",
    LAB_DK: "the scaling lab's d_k (a widget bound to the URL; its session key too)",
    LAB_SEED: "the scaling lab's random seed (a widget bound to the URL; its session key too)",
    HEAD: "the multi-head lab's picked head, 1-based (a widget bound to the URL; its key too)",
    # The real-model page's widgets, bound to the URL like the lab's (layer, head 1-based):
    RM_TEXT: "the real-model page's sentence",
    RM_TEXT_B: "the real-model page's second sentence (the comparison)",
    RM_TOKEN: "the real-model page's picked token (a unique label: 'it', 'the (2)')",
    RM_LAYER: "the real-model page's layer, 1 to 6",
    RM_HEAD: "the real-model page's head, 1 to 12",
    # The Decoder lab's widgets, bound to the URL like the Real model lab's (1-based):
    DEC_TEXT: "the Decoder lab's prompt",
    DEC_TOKEN: "the Decoder lab's picked token (a unique label: 'it', 'the (2)')",
    DEC_LAYER: "the Decoder lab's layer, 1 to 30",
    DEC_HEAD: "the Decoder lab's query head, 1 to 9",
    DEC_TEMP: "the Decoder lab's temperature, 0 (greedy) to 2",
    DEC_TOP_K: "the Decoder lab's top-k cut-off, 0 = none",
    DEC_TOP_P: "the Decoder lab's top-p cut-off, 1 = none",
    DEC_SEED: "the Decoder lab's seed for drawing tokens: a link reproduces the draws",
    DEC_N: "the Decoder lab's number of tokens for 'Generate N tokens', 1 to 32",
    DEC_TILE: "the Decoder lab's online-softmax stage: keys per tile",
    JOIN: "a live class's join code: joins it, and stays on a student's pages (a reload rejoins)",
    TEACH: "CODE.SECRET, the teacher's control link: read once, then removed from the address",
    SHORT: "a short link's id (frame.links): read once, the scenario and page it names replace it",
    # The walkthrough's row pickers (Softmax, Output), bound to the URL: a link keeps the row.
    SOFTMAX_ROW: "the Softmax page's query row (its label)",
    OUTPUT_ROW: "the Output page's query row (its label)",
    SOFTMAX_TILE: "the Softmax page's online softmax: keys per tile",
    # The Training lab's settings and its step slider, bound to the URL like the Scaling lab's:
    TR_TASK: "the Training lab's task (match, previous, match_noisy)",
    TR_DK: "the Training lab's d_k, 4 to 512",
    TR_LR: "the Training lab's learning rate",
    TR_SPREAD: "the Training lab's starting spread of W_Q and W_K",
    TR_STEPS: "the Training lab's number of steps",
    TR_SEED: "the Training lab's seed (its data and starting weights)",
    TR_STEP: "the Training lab's step slider: the training step its heatmaps show",
    LANG: "the session's language (es, fr, ...): read on a session's first run, then written",
}
# Carried by every link and page switch, like ?s=: a student's room survives a reload.
CARRIED_PARAMS = (JOIN,)
# Each page's own parameters (its pickers, bound to the URL): the sidebar's share link adds
# them to ?s=, so the link opens the page as it is, on the picked row, head or layer.
PAGE_PARAMS: dict[str, tuple[str, ...]] = {
    "softmax": (SOFTMAX_ROW, SOFTMAX_TILE),
    "output": (OUTPUT_ROW,),
    "scaling-lab": (LAB_DK, LAB_SEED),
    "training": (TR_TASK, TR_DK, TR_LR, TR_SPREAD, TR_STEPS, TR_SEED, TR_STEP),
    "multi-head": (HEAD,),
    "real-model": (RM_TEXT, RM_TEXT_B, RM_TOKEN, RM_LAYER, RM_HEAD),
    "decoder": (
        DEC_TEXT,
        DEC_TOKEN,
        DEC_LAYER,
        DEC_HEAD,
        DEC_TEMP,
        DEC_TOP_K,
        DEC_TOP_P,
        DEC_SEED,
        DEC_N,
        DEC_TILE,
    ),
    "present": (STEP_PARAM,),
}
