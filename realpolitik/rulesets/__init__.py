"""Rules modules of the variants realpolitik ships, named by a variant's ``[variant] hooks``
(``"realpolitik.rulesets.colonial_winters:ColonialWinters"``), so that the variant's folder and
small test variants share one module. Each is a :class:`~realpolitik.hooks.VariantHooks`
subclass; the engine knows none of them by name."""
