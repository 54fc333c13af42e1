"""The Training lab: train a head with and without 1/sqrt(d_k) (lab.py, figures.py)."""
