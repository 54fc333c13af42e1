"""The Scaling lab: a d_k sweep with and without 1/sqrt(d_k), its page parts and figures."""
