"""The corner's hooks: only the BLOCK order, Colonial Winters' kind (any variant with corners or
passages may declare it)."""

from realpolitik.hooks import VariantHooks
from realpolitik.kinds import OrderKind
from realpolitik.variants.colonial_winters.kinds import BlockKind


class Corner(VariantHooks):
    def order_kinds(self) -> tuple[OrderKind, ...]:
        return (BlockKind(),)
