"""What every page shares: the state owner, page registry, menu, sidebar, guard, look, widgets."""
