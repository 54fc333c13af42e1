"""The Real model lab: MiniLM's 72 heads on a sentence, one head stage by stage, data, figures."""
