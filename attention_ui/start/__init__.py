"""The Start page: the 'it -> animal' intuition, the clickable recipe and the example cards."""
