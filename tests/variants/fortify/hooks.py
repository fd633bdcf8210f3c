"""The hooks of the fortify variant: the classical game's, with one more kind of order."""

from realpolitik.hooks import VariantHooks
from realpolitik.kinds import OrderKind

from .fortify import FortifyKind


class Fortifying(VariantHooks):
    def order_kinds(self) -> tuple[OrderKind, ...]:
        return (FortifyKind(),)
