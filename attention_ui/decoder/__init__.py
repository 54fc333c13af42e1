"""The Decoder lab: SmolLM2's 270 causal heads on a prompt, RoPE, grouped queries, data, figures."""
