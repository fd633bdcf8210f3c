"""The hooks of Colonial Winters, as ``variant.toml`` names them (``hooks = "ColonialWinters"``):
the rules module beside this file, which also declares the variant's kinds of order."""

from realpolitik.variants.colonial_winters.rules import ColonialWinters

__all__ = ["ColonialWinters"]
