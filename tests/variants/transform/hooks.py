"""The hooks of the transform variant: the classical game's, with one more kind of order."""

from realpolitik.hooks import VariantHooks
from realpolitik.kinds import OrderKind

from .transform import TransformKind


class Transforming(VariantHooks):
    def order_kinds(self) -> tuple[OrderKind, ...]:
        return (TransformKind(),)
