"""The Multi-head lab: the scenario split into heads, its head controls, page parts and figures."""
