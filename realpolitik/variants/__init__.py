"""The variants shipped with realpolitik, one folder each (``variant.toml``, the map files and,
for rules that need code, Python files that the folder's ``hooks.py`` loads). A folder with an
``__init__.py`` is imported as ``realpolitik.variants.<folder>``."""
