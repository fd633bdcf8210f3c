"""Compatibility layers for code written against other Diplomacy engines.

:mod:`realpolitik.compat.diplomacy` is a facade with the calls, order strings and location names
of the ``diplomacy`` package on PyPI (1.1.2), so that research code runs on realpolitik by
changing one import::

    from realpolitik.compat.diplomacy import Game

:mod:`realpolitik.compat.diplomacy_json` reads and writes that package's saved-game JSON.
Neither needs the ``diplomacy`` package itself.
"""
