"""How fast the maths is, in this process, without a server or a browser: the core
against bare NumPy, the real models' forward passes, the scaling lab's sweep."""
