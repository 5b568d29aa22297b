"""Data shipped with the program, loaded by package name: the spirit catalog, the rules of the other
systems, the bundled font."""
