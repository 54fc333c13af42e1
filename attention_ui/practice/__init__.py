"""Practice: the lessons' exercises checked step by step, and presentation mode for a class."""
