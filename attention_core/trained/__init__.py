"""What the core's two trained models share: MiniLM (``pretrained/``, an encoder) and
SmolLM2 (``decoder/``, a causal decoder).

One home for each concept that is the same for both: the model folder and the errors that
say how to get it (``files``), the tokenizer glue (``tokenize``), the head-pattern measures
(``patterns``), a run's head index and its BLAS thread (``run``), and one head as a
walkthrough Scenario (``to_scenario``). What differs between an encoder and a decoder
(bidirectional against causal, padding against grouped queries and RoPE, WordPiece against
byte-level BPE) stays in each model's own package, which imports from here; this package
imports from neither.
"""
