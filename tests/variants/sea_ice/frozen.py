"""Which seas freeze, and in which season (read by hooks.py: a file beside it)."""

from __future__ import annotations

from dataclasses import dataclass

from realpolitik.position import Season


@dataclass(frozen=True)
class Freeze:
    """A sea that no unit may enter in one season."""

    sea: str
    season: Season


FROZEN_SEAS: tuple[Freeze, ...] = (Freeze("bot", Season.FALL),)
