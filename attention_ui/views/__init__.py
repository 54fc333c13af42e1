"""How figures reach the page: the shared figure cache, the chart call, the stage views."""
