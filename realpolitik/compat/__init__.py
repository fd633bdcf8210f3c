"""Compatibility layers for code written against other Diplomacy engines.

:func:`install` makes ``import diplomacy`` (the ``diplomacy`` package on PyPI, 1.1.2) give
realpolitik's compatibility layer, so research code written for that package runs unchanged::

    import realpolitik.compat
    realpolitik.compat.install()
    from diplomacy import Game          # realpolitik's facade

or, without touching the script, ``python -m realpolitik.compat SCRIPT [ARGS...]``.
:mod:`realpolitik.compat.diplomacy` is the facade itself (``Game``, ``Power``, ``Map``,
``Message``); :mod:`realpolitik.compat.diplomacy_json` reads and writes that package's saved
games. None of it needs the ``diplomacy`` package installed.
"""

from realpolitik.compat.importing import install, uninstall

__all__ = ["install", "uninstall"]
