"""The exception hierarchy of realpolitik.

Three words, never mixed up (see ``docs/notation.md``):

* *invalid*: the text cannot be read at all;
* *ambiguous*: it can be read in more than one way, and every reading is listed;
* *illegal*: it was understood, but is not allowed in this position, and the reason says why.

Outcomes of orders that are legal but fail (a bounce, a cut support) are values, not exceptions.
"""

from __future__ import annotations

from collections.abc import Sequence


class RealpolitikError(Exception):
    """Base class of every error raised by realpolitik."""


class VariantError(RealpolitikError, ValueError):
    """A variant's data files are wrong: names the file, the line and what is wrong."""

    def __init__(self, message: str, *, file: str = "", line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.detail = message
        where = file
        if line is not None:
            where = f"{file}, line {line}" if file else f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class HookError(VariantError):
    """A variant's hook failed (a bug in its code) or returned a value of the wrong kind:
    names the hook, and the file and line of ``hooks.py`` where it failed."""

    def __init__(self, message: str, *, hook: str, file: str = "",
                 line: int | None = None) -> None:
        self.hook = hook
        super().__init__(message, file=file, line=line)


class VariantWarning(UserWarning):
    """A variant's data is allowed but suspicious (a power without home centres, more
    centres needed to win than there are): issued with :func:`warnings.warn` on load."""


class OrderTextError(RealpolitikError, ValueError):
    """Order text that could not be turned into one order.

    ``text`` is the whole line, ``span`` the (start, end) character range of the offending part
    and ``line`` the 1-based line number in a sheet (0 when unknown). ``str()`` gives the message
    followed by the line with a caret under the span.
    """

    kind: str = "invalid"

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        span: tuple[int, int] | None = None,
        line: int = 0,
        hint: str = "",
    ) -> None:
        self.message = message
        self.text = text
        self.span = span if span is not None else (0, len(text))
        self.line = line
        self.hint = hint
        super().__init__(message)

    def with_line(self, line: int) -> OrderTextError:
        """Set the 1-based line number this error refers to; returns self."""
        self.line = line
        return self

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        out = f"{where}{self.message}"
        if self.hint:
            out += f"; {self.hint}"
        if self.text:
            start, end = self.span
            out += f"\n    {self.text}\n    {' ' * start}{'^' * max(1, end - start)}"
        return out

    def to_dict(self) -> dict[str, object]:
        """The fields a server or a script needs, as plain JSON values."""
        return {
            "kind": self.kind,
            "line": self.line,
            "span": list(self.span),
            "text": self.text,
            "message": self.message,
            "hint": self.hint,
        }


class InvalidOrderError(OrderTextError):
    """The text cannot be read as an order."""

    kind = "invalid"


class UnknownNameError(OrderTextError):
    """A word is not a place, power or unit type of the variant; ``suggestions`` lists close
    names."""

    kind = "unknown"

    def __init__(
        self,
        message: str,
        *,
        name: str,
        suggestions: Sequence[str] = (),
        text: str = "",
        span: tuple[int, int] | None = None,
        line: int = 0,
        hint: str = "",
    ) -> None:
        self.name = name
        self.suggestions = tuple(suggestions)
        super().__init__(message, text=text, span=span, line=line, hint=hint)

    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        out["suggestions"] = list(self.suggestions)
        return out


class AmbiguousOrderError(OrderTextError):
    """The text can be read more than one way; ``candidates`` holds every reading (canonical text).

    The rules (VII.2 of the 1992 rulebook): "An order which admits of two meanings is not
    followed".
    """

    kind = "ambiguous"

    def __init__(
        self,
        message: str,
        *,
        candidates: Sequence[str],
        text: str = "",
        span: tuple[int, int] | None = None,
        line: int = 0,
        hint: str = "",
    ) -> None:
        self.candidates = tuple(candidates)
        super().__init__(message, text=text, span=span, line=line, hint=hint)

    def to_dict(self) -> dict[str, object]:
        out = super().to_dict()
        out["candidates"] = list(self.candidates)
        return out


class IllegalOrderError(RealpolitikError, ValueError):
    """An order that was understood but is not allowed in this position.

    ``reason`` is a short code (``not_adjacent``, ``no_unit``...) and ``message`` one plain
    sentence.
    """

    kind = "illegal"

    def __init__(self, message: str, *, reason: str, order_text: str = "") -> None:
        self.message = message
        self.reason = reason
        self.order_text = order_text
        super().__init__(message)


class GameError(RealpolitikError, ValueError):
    """A request the game cannot carry out in its current state (wrong phase, game over...)."""
