"""DAIDE messages: the tokens, a message as Python values, and its two spellings (the wire's
16-bit tokens and the text form that people and logs read).

A message is a tuple of items; an item is a token's name (``str``, three letters: ``"HLO"``),
a number (``int``, -8192..8191), a piece of text (:class:`Text`) or a bracketed group (a
nested ``tuple``)::

    >>> message = parse_message("HLO (ENG) (1234) ((LVL 0))")
    >>> message
    ('HLO', ('ENG',), (1234,), (('LVL', 0),))
    >>> format_message(message)
    'HLO ( ENG ) ( 1234 ) ( ( LVL 0 ) )'
    >>> table = TokenTable.standard()
    >>> decode(encode(message, table), table) == message
    True

The numbers of the powers and provinces come from the server's representation message
(:meth:`TokenTable.with_representation`); the other tokens are fixed by the protocol
document, chapter 4.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Union

Item = Union[str, int, "Text", tuple["Item", ...]]
"""One item of a message: a token's name, a number, a text, or a bracketed group."""

Message = tuple[Item, ...]
"""A whole DAIDE message, such as ``("NOW", ("SPR", 1901), ("AUS", "AMY", "VIE"))``."""


@dataclass(frozen=True)
class Text:
    """A piece of text in a message (``'DumbBot'``): on the wire, one token per character."""

    value: str

    def __str__(self) -> str:
        return self.value


class DaideSyntaxError(ValueError):
    """A message that cannot be read: brackets that do not match, a token that does not exist,
    a number out of range. ``index`` is the token (or character of text) where it went wrong."""

    def __init__(self, message: str, index: int = 0) -> None:
        super().__init__(message)
        self.index = index


class BracketError(DaideSyntaxError):
    """Brackets that do not match (the server answers ``PRN``, not ``HUH``)."""


# -- the fixed tokens (protocol document, chapter 4) ------------------------------------------

BRA = 0x4000
KET = 0x4001
TEXT_CATEGORY = 0x4B
PROVINCE_CATEGORIES = range(0x50, 0x58)
POWER_CATEGORY = 0x41


def _category(category: int, names: str, first: int = 0, step: int = 1) -> dict[str, int]:
    return {name: (category << 8) | (first + step * i) for i, name in enumerate(names.split())}


def _numbered(category: int, pairs: Mapping[str, int]) -> dict[str, int]:
    return {name: (category << 8) | low for name, low in pairs.items()}


FIXED_TOKENS: Mapping[str, int] = {
    **_category(0x42, "AMY FLT"),
    **_numbered(0x43, {"CTO": 0x20, "CVY": 0x21, "HLD": 0x22, "MTO": 0x23, "SUP": 0x24,
                       "VIA": 0x25, "DSB": 0x40, "RTO": 0x41, "BLD": 0x80, "REM": 0x81,
                       "WVE": 0x82}),
    **_category(0x44, "MBV BPR CST ESC FAR HSC NAS NMB NMR NRN NRS NSA NSC NSF NSP NST NSU "
                      "NVR NYU YSC"),
    **_category(0x45, "SUC BNC CUT DSR FLD NSO RET"),
    **_category(0x46, "NCS NEC ECS SEC SCS SWC WCS NWC", step=2),
    **_category(0x47, "SPR SUM FAL AUT WIN"),
    **_category(0x48, "CCD DRW FRM GOF HLO HST HUH IAM LOD MAP MDF MIS NME NOT NOW OBS OFF ORD "
                      "OUT PRN REJ SCO SLO SND SUB SVE THX TME YES ADM SMR"),
    **_category(0x49, "AOA BTL ERR LVL MRT MTL NPB NPR PDA PTL RTL UNO"),
    "DSD": 0x490D,
    **_category(0x4A, "ALY AND BWX DMZ ELS EXP FWD FCT FOR HOW IDK IFF INS"),
    **_numbered(0x4A, {"OCC": 0x0E, "ORR": 0x0F, "PCE": 0x10, "POB": 0x11, "PRP": 0x13,
                       "QRY": 0x14, "SCD": 0x15, "SRY": 0x16, "SUG": 0x17, "THK": 0x18,
                       "THN": 0x19, "TRY": 0x1A, "VSS": 0x1C, "WHT": 0x1D, "WHY": 0x1E,
                       "XDO": 0x1F, "XOY": 0x20, "YDO": 0x21, "CHO": 0x22, "BCC": 0x23,
                       "UNT": 0x24}),
    # Parlance's own tokens, not yet numbered by the DAIDE documents (its protocol.html, 4.??)
    **_numbered(0x4E, {"SET": 0x01, "LST": 0x02, "SEL": 0x03, "PNG": 0x04, "PRB": 0x05,
                       "PRF": 0x06, "VAR": 0x07}),
}
"""Every token whose number the protocol fixes, by name (the brackets, powers, provinces,
numbers and text aside)."""

STANDARD_POWERS = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"]

STANDARD_PROVINCES: Mapping[int, str] = {
    0x50: "BOH BUR GAL RUH SIL TYR UKR",
    0x51: "BUD MOS MUN PAR SER VIE WAR",
    0x52: "ADR AEG BAL BAR BLA EAS ECH GOB GOL HEL ION IRI MAO NAO NTH NWG SKA TYS WES",
    0x54: "ALB APU ARM CLY FIN GAS LVN NAF PIC PIE PRU SYR TUS WAL YOR",
    0x55: "ANK BEL BER BRE CON DEN EDI GRE HOL KIE LON LVP MAR NAP NWY POR ROM RUM SEV SMY "
          "SWE TRI TUN VEN",
    0x57: "BUL SPA STP",
}
"""The standard map's provinces by category, in the order of their numbers (0 to 74)."""

NAME_PATTERN = re.compile(r"[A-Z0-9]{3}")


class TokenTable:
    """Token names and numbers for one connection: the fixed tokens plus the powers and
    provinces of the game's map."""

    def __init__(self, variable: Mapping[str, int]) -> None:
        """``variable``: the powers' and provinces' tokens, name -> number."""
        self.by_name: dict[str, int] = {**FIXED_TOKENS, **variable}
        self.by_number: dict[int, str] = {number: name for name, number in self.by_name.items()}
        self.variable: dict[str, int] = dict(variable)

    @classmethod
    def standard(cls) -> TokenTable:
        """The tokens of the standard map, as the protocol document numbers them."""
        variable = {name: (POWER_CATEGORY << 8) | i for i, name in enumerate(STANDARD_POWERS)}
        number = 0
        for category, names in STANDARD_PROVINCES.items():
            for name in names.split():
                variable[name] = (category << 8) | number
                number += 1
        return cls(variable)

    def with_representation(self, entries: Iterable[tuple[int, str]]) -> TokenTable:
        """The table a representation message makes: its powers and provinces replace the
        standard ones (an empty message keeps the standard map)."""
        pairs = list(entries)
        if not pairs:
            return self
        return TokenTable({name: number for number, name in pairs})

    def number(self, name: str) -> int:
        """The number of the token called ``name``.

        :raises DaideSyntaxError: no token has that name.
        """
        try:
            return self.by_name[name]
        except KeyError:
            raise DaideSyntaxError(f"no token is called {name!r}") from None

    def is_power(self, name: str) -> bool:
        """True if ``name`` is a power of this table's map."""
        number = self.variable.get(name)
        return number is not None and number >> 8 == POWER_CATEGORY

    def is_province(self, name: str) -> bool:
        """True if ``name`` is a province of this table's map."""
        number = self.variable.get(name)
        return number is not None and number >> 8 in PROVINCE_CATEGORIES


# -- the wire: 16-bit tokens -----------------------------------------------------------------

def encode(message: Message, table: TokenTable) -> bytes:
    """The message as the payload of a diplomacy message (big-endian 16-bit tokens).

    :raises DaideSyntaxError: a name the table does not know, or a number out of range.
    """
    out = bytearray()

    def put(token: int) -> None:
        out.append(token >> 8)
        out.append(token & 0xFF)

    def walk(items: Iterable[Item]) -> None:
        for item in items:
            if isinstance(item, tuple):
                put(BRA)
                walk(item)
                put(KET)
            elif isinstance(item, Text):
                for char in item.value:
                    code = ord(char)
                    if code > 0xFF:
                        raise DaideSyntaxError(f"text {item.value!r}: {char!r} is not one byte")
                    put((TEXT_CATEGORY << 8) | code)
            elif isinstance(item, bool):
                raise DaideSyntaxError(f"{item!r} is not a token")
            elif isinstance(item, int):
                if not -8192 <= item <= 8191:
                    raise DaideSyntaxError(f"{item} is outside -8192..8191")
                put(item & 0x3FFF)
            else:
                put(table.number(item))

    walk(message)
    return bytes(out)


def decode(data: bytes, table: TokenTable) -> Message:
    """The message in a diplomacy message's payload.

    :raises DaideSyntaxError: an odd length, brackets that do not match, or a token the table
        does not know (``index`` is the token's place).
    """
    if len(data) % 2:
        raise DaideSyntaxError(f"a message of {len(data)} bytes: tokens are two bytes each",
                               len(data) // 2)
    stack: list[list[Item]] = [[]]
    index = 0
    for index in range(len(data) // 2):
        token = (data[2 * index] << 8) | data[2 * index + 1]
        current = stack[-1]
        if token == BRA:
            stack.append([])
        elif token == KET:
            if len(stack) == 1:
                raise BracketError("a ')' closes nothing", index)
            group = tuple(stack.pop())
            stack[-1].append(group)
        elif token >> 8 == TEXT_CATEGORY:
            char = chr(token & 0xFF)
            if current and isinstance(current[-1], Text):
                current[-1] = Text(current[-1].value + char)
            else:
                current.append(Text(char))
        elif token < 0x4000:
            current.append(token - 0x4000 if token & 0x2000 else token)
        else:
            name = table.by_number.get(token)
            if name is None:
                raise DaideSyntaxError(f"no token has the number 0x{token:04X}", index)
            current.append(name)
    if len(stack) > 1:
        raise BracketError("a '(' is never closed", index)
    return tuple(stack[0])


# -- the text form ---------------------------------------------------------------------------

_TEXT_TOKEN = re.compile(r"\s*(?:(\()|(\))|'((?:[^']|'')*)'|\"((?:[^\"]|\"\")*)\"|(-?\d+)"
                         r"|([A-Za-z0-9]{3})(?![A-Za-z0-9]))")


def parse_message(text: str) -> Message:
    """Read a message's text form: tokens separated by spaces, brackets, numbers, and text in
    single or double quotes (a quote doubled inside is one quote).

    :raises DaideSyntaxError: something that is no token, or brackets that do not match
        (``index`` is the character where it went wrong).
    """
    stack: list[list[Item]] = [[]]
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _TEXT_TOKEN.match(text, position)
        if match is None:
            start = len(text) - len(text[position:].lstrip())
            raise DaideSyntaxError(f"character {start + 1}: {text[start:start + 10]!r} is not a "
                                   "token, number, bracket or quoted text", start)
        opening, closing, single, double, number, name = match.groups()
        if opening:
            stack.append([])
        elif closing:
            if len(stack) == 1:
                raise BracketError(f"character {match.end()}: a ')' closes nothing",
                                       match.end() - 1)
            group = tuple(stack.pop())
            stack[-1].append(group)
        elif single is not None:
            stack[-1].append(Text(single.replace("''", "'")))
        elif double is not None:
            stack[-1].append(Text(double.replace('""', '"')))
        elif number is not None:
            stack[-1].append(int(number))
        else:
            stack[-1].append(name.upper())
        position = match.end()
    if len(stack) > 1:
        raise BracketError("a '(' is never closed", len(text))
    return tuple(stack[0])


def format_message(message: Iterable[Item]) -> str:
    """The message's text form, spaced as the DAIDE documents write it."""
    return " ".join(_format_items(message))


def _format_items(items: Iterable[Item]) -> Iterator[str]:
    for item in items:
        if isinstance(item, tuple):
            yield "("
            yield from _format_items(item)
            yield ")"
        elif isinstance(item, Text):
            yield "'" + item.value.replace("'", "''") + "'"
        else:
            yield str(item)
