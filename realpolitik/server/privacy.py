"""What others may see of what a player typed, and the fingerprint of a power's stored orders.

A player's order text may hold more than orders: a note to self, a line the parser could not
read, a plan for next year. Only the orders that were read are ever shown to other people
(every power's orders are public once the phase is played); the lines that were not orders stay
private to the powers that wrote them, which see them marked as not sent. The stored record
keeps everything (the writer's history shows it); these functions make the copies that leave
the server.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Collection, Mapping
from typing import Any

JSON = dict[str, Any]

__all__ = ["orders_revision", "phase_as_seen", "record_as_seen"]


def _entries_as_seen(power: str, entries: list[JSON], own: Collection[str]) -> list[JSON]:
    """One power's recorded lines as a viewer commanding ``own`` may see them."""
    if power.lower() in own:
        # the writer sees every line; those that were not orders are marked as never sent
        return [entry if entry.get("order") else {**entry, "not_sent": True}
                for entry in entries]
    # anyone else sees the orders as they were read, and nothing of the text around them
    return [{"text": entry["order"], "order": entry["order"]}
            for entry in entries if entry.get("order")]


def phase_as_seen(entry: Mapping[str, Any], own: Collection[str] = ()) -> JSON:
    """A played phase (as stored: ``{"orders": {POWER: [{"text", "order", "error"...}]}...}``)
    as a viewer who commands the powers ``own`` (lower case) may see it: every power's orders
    that were read, and the unread lines of ``own`` only, marked ``"not_sent": true``."""
    seen = dict(entry)
    seen["orders"] = {power: _entries_as_seen(power, list(entries), own)
                      for power, entries in (entry.get("orders") or {}).items()}
    return seen


def record_as_seen(record: Mapping[str, Any]) -> JSON:
    """A game record (savefile JSON) as anyone may download it: every phase's orders as read,
    without the lines that were not orders. It still loads and replays as the game was played
    (an unread line is never carried out)."""
    seen = copy.deepcopy(dict(record))
    seen["phases"] = [phase_as_seen(phase) for phase in seen.get("phases", [])]
    current = seen.get("current")
    if isinstance(current, dict) and current.get("orders"):
        current["orders"] = phase_as_seen({"orders": current["orders"]})["orders"]
    return seen


def orders_revision(phase: str, text: str | None) -> str:
    """A short fingerprint of a power's stored orders in ``phase`` (``text`` None: none given).
    A page sends back the revision it last saw with its next orders; orders changed meanwhile
    (in another tab, on another device) are then refused rather than overwritten unseen."""
    given = "\x00" if text is None else "\x01" + text
    return hashlib.sha256(f"{phase}\x00{given}".encode()).hexdigest()[:16]
