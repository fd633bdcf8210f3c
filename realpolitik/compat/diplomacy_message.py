"""Press and history in the ``diplomacy`` package's shapes: ``Message``, ``SortedDict`` (the
package's phase-keyed histories) and ``GamePhaseData`` (one played phase)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from functools import partial
from typing import Any, TypeVar

__all__ = ["GLOBAL", "OBSERVER", "OMNISCIENT", "SYSTEM", "GamePhaseData", "Message",
           "SortedDict", "Deferred", "timestamp_microseconds"]

SYSTEM = "SYSTEM"
"""The sender of the game's own messages."""
GLOBAL = "GLOBAL"
"""The recipient of a message to every power."""
OBSERVER = "OBSERVER"
"""The recipient of a message to the observers."""
OMNISCIENT = "OMNISCIENT"
"""The recipient of a message to the omniscient observers."""

_last_stamp = [0]


def timestamp_microseconds() -> int:
    """Microseconds since the epoch, strictly increasing within this process (two messages
    added in the same microsecond still get different times, which key them)."""
    now = max(int(time.time() * 1_000_000), _last_stamp[0] + 1)
    _last_stamp[0] = now
    return now


class Message:
    """A press message: ``sender``, ``recipient`` (a power, ``GLOBAL``...), ``time_sent`` (in
    microseconds: it orders and keys the messages), ``phase`` (``"S1901M"``), ``message``."""

    __slots__ = ("sender", "recipient", "time_sent", "phase", "message")

    def __init__(self, sender: str | None = None, recipient: str | None = None,
                 time_sent: int | None = None, phase: str | None = None,
                 message: str | None = None) -> None:
        self.sender = sender
        self.recipient = recipient
        self.time_sent = time_sent
        self.phase = phase
        self.message = message

    def is_global(self) -> bool:
        """True for a message to every power."""
        return self.recipient == GLOBAL

    def for_observer(self) -> bool:
        """True for a message to the observers."""
        return self.recipient == OBSERVER

    def to_dict(self) -> dict[str, Any]:
        """The package's dictionary of the message."""
        return {"sender": self.sender, "recipient": self.recipient,
                "time_sent": self.time_sent, "phase": self.phase, "message": self.message}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        """A message from its dictionary (:meth:`to_dict`)."""
        return cls(data.get("sender"), data.get("recipient"), data.get("time_sent"),
                   data.get("phase"), data.get("message"))

    def __str__(self) -> str:
        return f"[{self.sender}->{self.recipient}]({self.phase}): {self.message}"

    def __repr__(self) -> str:
        return f"Message({self.to_dict()!r})"

    def __hash__(self) -> int:
        return hash(self.time_sent)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self.time_sent == other.time_sent

    def __lt__(self, other: Message) -> bool:
        return (self.time_sent or 0) < (other.time_sent or 0)


class Deferred(partial[Any]):
    """A history value worked out when first read (a phase's state or results), by calling
    it: a function and its arguments, as :func:`functools.partial` takes them (made in C: a
    program playing many games seldom reads them, and makes one each phase)."""


_V = TypeVar("_V")


class SortedDict(MutableMapping[Any, _V]):
    """The package's sorted dictionary, for phase histories and messages: keys in the order
    they were put (phases are put as they are played, messages as they are sent), with the
    package's calls. A value put as a :class:`Deferred` is made when first read."""

    __slots__ = ("_data",)

    def __init__(self, items: Mapping[Any, _V] | Iterable[tuple[Any, _V]] = ()) -> None:
        self._data: dict[Any, Any] = dict(items)

    def __getitem__(self, key: Any) -> _V:
        value = self._data[key]
        if type(value) is Deferred:
            value = self._data[key] = value()
        made: _V = value
        return made

    def __setitem__(self, key: Any, value: _V | Deferred) -> None:
        self._data[key] = value

    def __delitem__(self, key: Any) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __repr__(self) -> str:
        return f"SortedDict({dict(self.items())!r})"

    def put(self, key: Any, value: _V | Deferred) -> None:
        """Add or replace ``key``."""
        self._data[key] = value

    def first_key(self) -> Any:
        """The first key put (``None`` when empty)."""
        return next(iter(self._data), None)

    def last_key(self) -> Any:
        """The last key put (``None`` when empty)."""
        return next(reversed(self._data), None)

    def first_value(self) -> _V | None:
        """The value of :meth:`first_key`."""
        return self[self.first_key()] if self._data else None

    def last_value(self) -> _V | None:
        """The value of :meth:`last_key`."""
        return self[self.last_key()] if self._data else None

    def key_from_index(self, index: int) -> Any:
        """The key at ``index`` (negative counts from the end)."""
        return list(self._data)[index]

    def reversed_values(self) -> list[_V]:
        """The values, last first."""
        return [self[key] for key in reversed(self._data)]

    def sub_keys(self, key_from: Any = None, key_to: Any = None) -> list[Any]:
        """The keys from ``key_from`` to ``key_to``, both included (``None``: from the first,
        to the last); none if either is not a key."""
        if (key_from is not None and key_from not in self._data) or \
                (key_to is not None and key_to not in self._data):
            return []
        keys = list(self._data)
        start = keys.index(key_from) if key_from is not None else 0
        end = keys.index(key_to) + 1 if key_to is not None else len(keys)
        return keys[start:end]

    def sub(self, key_from: Any = None, key_to: Any = None) -> list[_V]:
        """The values of :meth:`sub_keys`."""
        return [self[key] for key in self.sub_keys(key_from, key_to)]

    def copy(self) -> SortedDict[_V]:
        """A shallow copy."""
        return SortedDict(self._data)


_HISTORY_OF = {"state": 0, "orders": 1, "results": 2, "messages": 3}
"""A part of :class:`GamePhaseData` -> the index of its history in ``_histories``."""


class GamePhaseData:
    """One phase of a game: its ``name`` (``"S1901M"``), the ``state`` at its start, the
    ``orders`` given (power -> order strings), the ``results`` (unit -> statuses) and the
    ``messages`` sent in it (time sent -> :class:`Message`). A part given as a
    :class:`Deferred` is made when first read."""

    __slots__ = ("name", "_parts", "_histories")

    def __init__(self, name: str, state: dict[str, Any] | Deferred,
                 orders: Mapping[str, Any] | Deferred, results: Mapping[str, Any] | Deferred,
                 messages: Mapping[int, Message] | Deferred) -> None:
        self.name = name
        self._parts: dict[str, Any] = {
            "state": state, "results": results, "messages": messages,
            "orders": dict(orders) if type(orders) is dict or (
                type(orders) is not Deferred and isinstance(orders, Mapping)) else orders}
        self._histories: tuple[SortedDict[Any], ...] = ()
        """For a phase of a game's histories (:meth:`in_histories`): the state, orders,
        results and messages histories, from which a part not in ``_parts`` is read."""

    @classmethod
    def in_histories(cls, name: str, states: SortedDict[Any], orders: SortedDict[Any],
                     results: SortedDict[Any], messages: SortedDict[Any]) -> GamePhaseData:
        """The phase ``name`` as these histories hold it, each part read from its history
        when first read (:meth:`Game.process <realpolitik.compat.diplomacy.Game.process>`
        returns one per phase, which a caller seldom reads)."""
        made = cls.__new__(cls)
        made.name = name
        made._parts = {}
        made._histories = (states, orders, results, messages)
        return made

    def _part(self, key: str) -> Any:
        parts = self._parts
        if key not in parts:  # (a phase of a game's histories: read there)
            parts[key] = self._histories[_HISTORY_OF[key]][self.name]
        value = parts[key]
        if type(value) is Deferred:
            value = parts[key] = value()
        return value

    @property
    def state(self) -> dict[str, Any]:
        """The state at the start of the phase (``Game.get_state()``)."""
        state: dict[str, Any] = self._part("state")
        return state

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        self._parts["state"] = value

    @property
    def orders(self) -> dict[str, Any]:
        """power -> the orders it gave (``None``: none set)."""
        orders: dict[str, Any] = self._part("orders")
        return orders

    @orders.setter
    def orders(self, value: Mapping[str, Any]) -> None:
        self._parts["orders"] = value

    @property
    def results(self) -> dict[str, Any]:
        """unit -> its statuses (``["bounce"]``)."""
        results: dict[str, Any] = self._part("results")
        return results

    @results.setter
    def results(self, value: Mapping[str, Any]) -> None:
        self._parts["results"] = value

    @property
    def messages(self) -> SortedDict[Message]:
        """time sent -> message."""
        messages = self._part("messages")
        if not isinstance(messages, SortedDict):
            messages = self._parts["messages"] = SortedDict(messages)
        return messages

    @messages.setter
    def messages(self, value: Mapping[int, Message]) -> None:
        self._parts["messages"] = value

    def to_dict(self) -> dict[str, Any]:
        """The package's dictionary of the phase (messages as a list of dictionaries)."""
        return {"name": self.name, "state": self.state,
                "orders": {power: list(orders) if orders is not None else None
                           for power, orders in self.orders.items()},
                "results": {unit: [str(r) for r in results]
                            for unit, results in self.results.items()},
                "messages": [message.to_dict() for message in self.messages.values()]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GamePhaseData:
        """A phase from its dictionary (:meth:`to_dict`)."""
        messages = [Message.from_dict(m) for m in data.get("messages", [])]
        return cls(data["name"], dict(data.get("state", {})), dict(data.get("orders", {})),
                   dict(data.get("results", {})),
                   {(m.time_sent or 0): m for m in messages})

    def __repr__(self) -> str:
        return f"<GamePhaseData {self.name}>"
