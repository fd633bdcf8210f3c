"""Idiom kernels for ``benchmarks/compiled_idioms.py`` (interpreted against mypyc-compiled)."""
