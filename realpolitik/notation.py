"""Reading and writing orders as people write them.

:func:`parse_order` reads one order, :func:`parse_orders` a whole sheet (``England: A Liv-Yor,
F Lon-Nth``, one order per line, or the 1971 rulebook's run-on lines), and :func:`format_order`
writes the canonical text that :func:`parse_order` reads back to the same order.

The parser follows VII.2 of the rules: an order that can be read two ways is not followed (an
:class:`AmbiguousOrderError` lists every reading), and a badly written order with only one possible
meaning is followed. Given a position, it uses it to settle what the text leaves open: the unit
type, the coast a fleet stands on or can reach, the one fleet of a power (``F S A Bul-Rum``), or
a name that could mean two places of which only one fits (the 1971 book's ``F Nap-Tyr`` for the
Tyrrhenian Sea). Grammar and wording are documented in ``docs/notation.md``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from realpolitik.caches import Bounded, CacheSlot
from realpolitik.errors import (
    AmbiguousOrderError,
    InvalidOrderError,
    OrderTextError,
    UnknownNameError,
)
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.legality import adjustment_counts
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    with_power,
)
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.variant import Variant, load_variant, normalize_name
from realpolitik.writing import write_place

if TYPE_CHECKING:  # pragma: no cover
    from realpolitik.kinds import OrderKind

__all__ = [
    "OrderSheet",
    "ParsedOrder",
    "format_order",
    "parse_order",
    "parse_orders",
]

# -- words -------------------------------------------------------------------------------------

_HOLD = frozenset({"h", "hold", "holds", "stand", "stands", "stay", "stays", "hld"})
_SUPPORT = frozenset({"s", "support", "supports", "sup", "supp", "supporting"})
_CONVOY = frozenset({"c", "convoy", "convoys", "cvy", "convoying", "transports"})
_MOVE = frozenset({"m", "move", "moves", "mv", "to", "into", "attack", "attacks", "goes"})
_RETREAT = frozenset({"r", "retreat", "retreats", "rtr"})
_DISBAND = frozenset(
    {"d", "disband", "disbands", "disbanded", "remove", "removes", "removed", "destroy",
     "destroyed", "annihilated", "removal"}
)
_BUILD = frozenset({"b", "build", "builds", "built"})
_WAIVE = frozenset({"waive", "waives", "waived", "waiver"})
_UNIT_TYPES = {"a": UnitType.ARMY, "army": UnitType.ARMY, "f": UnitType.FLEET,
               "fleet": UnitType.FLEET}
_KEYWORDS = _HOLD | _SUPPORT | _CONVOY | _MOVE | _RETREAT | _DISBAND | _BUILD | _WAIVE \
    | {"a", "f", "via", "by"}

_STARTS_AFTER_POWER = frozenset(_UNIT_TYPES) | _BUILD | _DISBAND | _WAIVE | _RETREAT
_DIRECTIONS = {
    "n": "north", "no": "north", "nth": "north", "north": "north", "northern": "north",
    "s": "south", "so": "south", "sth": "south", "south": "south", "southern": "south",
    "e": "east", "east": "east", "eastern": "east",
    "w": "west", "west": "west", "western": "west",
}
_COAST_CODES = frozenset({"nc", "sc", "ec", "wc", "ncs", "scs", "ecs", "wcs"})


def _coast_keys(spelled: Sequence[str]) -> list[str]:
    """The names to look a written coast up by, most literal first: ``n c`` -> ``nc``,
    ``nth coast`` -> ``north coast``, ``north`` -> ``north``/``nc``. The variant's
    ``coasts.csv`` names and aliases decide which of them is a coast of the province."""
    keys = [" ".join(spelled)]
    if len(spelled) > 1 and all(len(w) == 1 for w in spelled):
        keys.append("".join(spelled))  # "n.c." and "n/c" are read as the letters n and c
    direction = _DIRECTIONS.get(spelled[0])
    rest = spelled[1:]
    if direction is not None and rest in ([], ["c"], ["coast"], ["cst"], ["cs"]):
        keys += [f"{direction} coast", direction, f"{direction[0]}c"]
    return list(dict.fromkeys(keys))

_DASH_CHARS = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_TOKEN_RE = re.compile(
    r"(?P<arrow>->|=>|\u2192|>)|(?P<dash>[" + _DASH_CHARS + r"]+)|(?P<slash>/)"
    r"|(?P<lparen>[(\[])|(?P<rparen>[)\]])|(?P<sep>[,;])|(?P<colon>:)"
    r"|(?P<word>[^\W_]+(?:['\u2019][^\W_]+)*)|(?P<dot>\.)|(?P<space>\s+)|(?P<other>.)",
    re.UNICODE,
)


class _Token(NamedTuple):
    # a named tuple, not a dataclass: made four times faster, and a long text has thousands
    kind: str  # word, dash, slash, lparen, rparen, sep, colon, other
    text: str  # lower-case word text, or the symbol
    start: int
    end: int
    glued: bool = False
    """True if no space separates this token from the one before."""


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    previous_end = -1
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup or "other"
        if kind == "space" or kind == "dot":
            continue
        if kind == "arrow":
            kind = "dash"
        start, end = match.span()
        value = match.group().lower() if kind == "word" else match.group()
        tokens.append(_Token(kind, value, start, end, start == previous_end))
        previous_end = end
    return tokens


def _tokens(lexicon: _Lexicon, text: str) -> list[_Token]:
    """:func:`_tokenize`, through the lexicon's memo for short texts."""
    if len(text) > _MEMO_TEXT:
        return _tokenize(text)
    kept = lexicon.token_memo.get(text)
    if kept is None:
        kept = lexicon.token_memo[text] = tuple(_tokenize(text))
    return list(kept)


# -- the lexicon of one variant ------------------------------------------------------------


_PrefixMatch = tuple[int, tuple[str, ...]]
"""How many words matched as the beginnings of names, and the locations so named."""

_MEMO_BOUND = 1024
"""Entries kept by each of a lexicon's memos (under a kilobyte each: ~2 MB at most for the
three)."""
_MEMO_TEXT = 100
"""The longest text whose tokens are kept (an order is shorter; a pasted sheet is not kept)."""

SHEET_ORDER_LIMIT = 300
"""The most orders :func:`parse_orders` reads from one sheet; the rest is one error entry.
Every power of the largest variant giving an order for each of its units and a few
corrections fits; the bound keeps the time to read any text in proportion to it (about
50 microseconds an order) however the text is made."""

ORDER_TOKEN_LIMIT = 100
"""The most words and signs one order may have (the longest order people write has some
thirty); a longer piece is reported as too long, not read."""

SHEET_SUGGESTION_LIMIT = 20
"""Unknown names of one sheet for which the places they may have meant are looked for (each
new one compares the name with every name of the map); later ones get the general hint."""


@dataclass(frozen=True)
class _Lexicon:
    exact: dict[tuple[str, ...], str]
    """Name as a tuple of words -> location id."""
    shared: dict[tuple[str, ...], tuple[str, ...]]
    """A name several places share, as a tuple of words -> their location ids (read as
    ambiguous unless the position leaves one)."""
    qualified: bool
    """True if a name carries a word in brackets (``Columbia (US)``): only then is a bracket
    after a name read as part of it before it is read as a coast."""
    names: dict[str, tuple[tuple[tuple[str, ...], str], ...]]
    """Every (words, location) for prefix matching, by the first letter of the name."""
    display: dict[str, str]
    longest: int
    keywords: frozenset[str] = _KEYWORDS
    """The order words: the rulebooks' and the variant's own kinds' (``variant.kinds``)."""
    prefix_memo: Bounded[tuple[tuple[str, ...], int], _PrefixMatch | None] = field(
        default_factory=lambda: Bounded(_MEMO_BOUND))
    """:meth:`_Parser._prefix_candidates` by its arguments: players write the same few names
    again and again, and matching a word against every name with its initial is a third of
    the time it takes to read an order."""
    token_memo: Bounded[str, tuple[_Token, ...]] = field(
        default_factory=lambda: Bounded(_MEMO_BOUND))
    """:func:`_tokenize` by the text (of at most ``_MEMO_TEXT`` characters): a sheet's line is
    read into tokens, then its orders one by one, most often the same text again."""
    power_memo: Bounded[tuple[tuple[str, str], ...], tuple[str | None, int]] = field(
        default_factory=lambda: Bounded(_MEMO_BOUND))
    """:func:`_strip_power_prefix` by the kind and text of the first four tokens (all that
    it reads): the power written and how many tokens it took, asked twice for every order."""
    suggestion_memo: Bounded[str, tuple[str, ...]] = field(
        default_factory=lambda: Bounded(_MEMO_BOUND))
    """The places an unknown name may have meant, by the name: finding them compares the name
    with every name of the map (a fifth of a millisecond)."""


def _words(name: str) -> tuple[str, ...]:
    return tuple(w for w in re.split(r"[\s\-/()]+", normalize_name(name)) if w)


def _make_lexicon(variant: Variant) -> _Lexicon:
    exact: dict[tuple[str, ...], str] = {}
    names: list[tuple[tuple[str, ...], str]] = []
    for name, location in variant.names.items():
        words = _words(name)
        if not words:
            continue
        exact.setdefault(words, location)
        names.append((words, location))
        joined = ("".join(words),)
        if len(words) > 1:
            exact.setdefault(joined, location)
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}
    for name, locations in variant.shared_names.items():
        words = _words(name)
        if words and words not in exact:
            shared[words] = locations
            names.extend((words, location) for location in locations)
    qualified = any("(" in name for name in variant.names)
    display = {loc: variant.map.name(loc) for loc in variant.map.locations}
    by_initial: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for words, location in names:
        by_initial.setdefault(words[0][0], []).append((words, location))
    keywords = _KEYWORDS | frozenset(variant.kinds.by_word) if variant.kinds else _KEYWORDS
    return _Lexicon(exact, shared, qualified, {k: tuple(v) for k, v in by_initial.items()},
                    display, max(len(w) for w, _ in names), keywords)


_lexicon: CacheSlot[Variant, _Lexicon] = CacheSlot("notation lexicon", _make_lexicon)
"""The names the parser knows for a variant's places (one per variant, fixed by its map)."""


# -- parsed pieces -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Place:
    candidates: tuple[str, ...]
    """Location ids it may mean, the likeliest first."""
    coast: str | None
    """A coast given explicitly, as a location id (``spa/nc``)."""
    span: tuple[int, int]
    written: str
    exact: bool = True
    """True if the first candidate is an exact name (the others only begin with the words)."""


@dataclass(slots=True)
class _Draft:
    """An order as read from the text, before the position settles what it leaves open."""

    action: str = "hold"  # hold move support_hold support_move convoy retreat disband build waive
    power: str | None = None
    unit_type: UnitType | None = None
    place: _Place | None = None
    target_power: str | None = None
    target_type: UnitType | None = None
    target: _Place | None = None
    destination: _Place | None = None
    via_convoy: bool = False
    point: str | None = None
    """The argument of an order of a variant's kind, named by an id that is no place (a
    corner's); a place named is in ``target``."""
    span: tuple[int, int] = (0, 0)
    unit_span: tuple[int, int] = (0, 0)
    action_written: bool = False
    """False when the text names only the unit ("A Vie"): an adjustment phase reads that as
    the build or removal the power is due."""


@dataclass(slots=True)
class _Allowance:
    """What is left of the costly help one sheet may have (:data:`SHEET_SUGGESTION_LIMIT`)."""

    suggestions: int = SHEET_SUGGESTION_LIMIT


class _Parser:
    """Recursive descent over the tokens of one order."""

    def __init__(self, variant: Variant, text: str, tokens: Sequence[_Token],
                 implied: str | None = None, allowance: _Allowance | None = None) -> None:
        self.variant = variant
        self.allowance = allowance
        self.lexicon = _lexicon(variant)
        self.kinds = variant.kinds
        self.text = text
        self.tokens = list(tokens)
        self.i = 0
        self.implied = implied
        """``build`` or ``disband`` carried from the same sentence ("builds F Kiel and A
        Mun"), for a part that names only a unit."""

    # token helpers
    def peek(self, offset: int = 0) -> _Token | None:
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else None

    def word(self, offset: int = 0) -> str | None:
        token = self.peek(offset)
        return token.text if token is not None and token.kind == "word" else None

    def at_end(self) -> bool:
        return self.i >= len(self.tokens)

    def error(self, message: str, span: tuple[int, int] | None = None, hint: str = "") -> \
            InvalidOrderError:
        if span is None:
            token = self.peek()
            span = (token.start, token.end) if token else (len(self.text), len(self.text))
        return InvalidOrderError(message, text=self.text, span=span, hint=hint)

    def take_power(self) -> str | None:
        """A power name or adjective ("RUSSIAN", "Turk.") before a unit."""
        for length in (2, 1):
            words = [self.word(k) for k in range(length)]
            if None in words:
                continue
            key = " ".join(w for w in words if w)
            power = self.variant.power_names.get(key)
            if power is None and length == 1 and len(key) >= 3:
                matches = {p for name, p in self.variant.power_names.items()
                           if name.startswith(key) and " " not in name}
                if len(matches) == 1:
                    # only if what follows reads as a unit, so that "Tur" is not taken for a place
                    follower = self.word(1)
                    if follower in _UNIT_TYPES or self._looks_like_place(1):
                        power = matches.pop()
            if power is not None:
                nxt = self.word(length)
                if nxt in _UNIT_TYPES or self._looks_like_place(length):
                    self.i += length
                    return power
        return None

    def _looks_like_place(self, offset: int) -> bool:
        saved = self.i
        self.i += offset
        try:
            return self.try_place() is not None
        except OrderTextError:
            return True
        finally:
            self.i = saved

    def take_unit_type(self) -> UnitType | None:
        word = self.word()
        if word in _UNIT_TYPES:
            # "A" could start a place name only in theory; no standard place is called "a".
            self.i += 1
            return _UNIT_TYPES[word]
        if word and len(word) >= 4 and word[0] in "af" and (word,) not in self.lexicon.exact \
                and (word[1:],) in self.lexicon.exact:
            # "FRum": a unit letter run into the place name; split the token in two
            token = self.tokens[self.i]
            self.tokens[self.i:self.i + 1] = [
                _Token("word", word[0], token.start, token.start + 1, token.glued),
                _Token("word", word[1:], token.start + 1, token.end, True),
            ]
            self.i += 1
            return _UNIT_TYPES[word[0]]
        return None

    def skip_build_prose(self) -> None:
        """``builds a new fleet in Edinburgh``: skip the words around the unit type."""
        if self.word() in ("a", "an") and self.word(1) in ("new", "fleet", "army"):
            self.i += 1
        if self.word() == "new":
            self.i += 1

    def try_place(self) -> _Place | None:
        """Read a place name at the cursor (longest match), with an optional coast."""
        if self.word() == "the" and self.word(1) is not None:
            found = self._read_place(whole_names_only=True)  # "The Hague"
            if found is not None:
                return found
            self.i += 1  # "to the Ionian Sea"
            found = self._read_place()
            if found is None:
                self.i -= 1
            return found
        return self._read_place()

    def _name_words(self) -> tuple[list[str], list[int]]:
        """The words at the cursor that may make a name, and the index of the token that
        ends each: ``Mid-Atlantic`` (a hyphen inside a name), ``Mafia & Pemba``, and, if the
        variant has such names, a word in brackets (``Columbia (US)``)."""
        words: list[str] = []
        ends: list[int] = []
        tokens = self.tokens
        j = self.i
        while j < len(tokens) and len(words) < self.lexicon.longest:
            token = tokens[j]
            following = tokens[j + 1] if j + 1 < len(tokens) else None
            if token.kind == "word":
                words.append(token.text)
                ends.append(j)
            elif token.kind == "dash" and token.glued and words and following is not None \
                    and following.glued and following.kind == "word":
                pass  # "Mid-Atlantic": a hyphen inside a name
            elif token.text == "&" and words and following is not None \
                    and following.kind == "word":
                words.append("&")
                ends.append(j)
            elif token.kind == "lparen" and self.lexicon.qualified and words \
                    and following is not None and following.kind == "word" \
                    and j + 2 < len(tokens) and tokens[j + 2].kind == "rparen":
                words.append(following.text)
                ends.append(j + 2)
                j += 3
                continue
            else:
                break
            j += 1
        return words, ends

    def _read_place(self, *, whole_names_only: bool = False) -> _Place | None:
        start_index = self.i
        first = self.peek()
        if first is None or first.kind != "word":
            return None
        words, ends = self._name_words()
        candidates: list[str] = []
        used = 0
        exact = True
        for n in range(len(words), 0, -1):
            key = tuple(words[:n])
            if key in self.lexicon.exact:
                candidates.append(self.lexicon.exact[key])
                used = n
                break
            if key in self.lexicon.shared:
                candidates.extend(self.lexicon.shared[key])  # "Columbia": two places
                used = n
                exact = False
                break
        if whole_names_only:
            if not candidates or used < 2:
                return None
            return self._place_read(candidates, used, ends, first, exact)
        # other readings matter only without an exact name, or beside a one-word one ("Tyr")
        prefix_matches = self._prefix_candidates(words, used) if used <= 1 else None
        if not candidates and prefix_matches:
            used, found = prefix_matches
            candidates.extend(found)
            exact = False
        elif candidates and prefix_matches and prefix_matches[0] == used == 1 \
                and not any(c.isdigit() for c in words[0]):
            # an exact short name that also begins another name ("Tyr": Tyrolia or Tyrrhenian);
            # a numbered space is no abbreviation ("e10" is not e100-e109 of a numbered map)
            candidates.extend(loc for loc in prefix_matches[1] if loc not in candidates)
        if not candidates:
            self.i = start_index
            return None
        return self._place_read(candidates, used, ends, first, exact)

    def _place_read(self, candidates: list[str], used: int, ends: list[int], first: _Token,
                    exact: bool) -> _Place:
        """The place of the first ``used`` words, with the coast written after them."""
        last = self.tokens[ends[used - 1]]
        self.i = ends[used - 1] + 1
        written = self.text[first.start:last.end]
        coast, coast_end = self.take_coast(candidates)
        span = (first.start, coast_end if coast_end else last.end)
        return _Place(tuple(dict.fromkeys(candidates)), coast, span, written, exact)

    def _prefix_candidates(
        self, words: Sequence[str], exact_used: int
    ) -> _PrefixMatch | None:
        """Names whose words begin with the written words ("Gulf of L.", "W Med.", "Edin")."""
        key = (tuple(words), exact_used)
        memo = self.lexicon.prefix_memo
        if key in memo:
            return memo[key]
        found = memo[key] = self._match_prefixes(key[0], exact_used)
        return found

    def _match_prefixes(
        self, words: tuple[str, ...], exact_used: int
    ) -> _PrefixMatch | None:
        keywords = self.lexicon.keywords
        for n in range(len(words), 0, -1):
            phrase = words[:n]
            if phrase[-1] in keywords and n > 1:
                continue  # "Bla S": the S is a support, not "Black Sea"
            if n == 1 and (len(phrase[0]) < 3 or phrase[0] in keywords):
                continue
            same_initial = self.lexicon.names.get(phrase[0][0], ())
            found = {
                loc for name, loc in same_initial
                if len(name) == n and all(nw.startswith(pw) for nw, pw in zip(name, phrase,
                                                                              strict=True))
            }
            if n == 1:
                # single words may also abbreviate a run-together name ("NAtl", "StP")
                found |= {loc for name, loc in same_initial
                          if len(name) > 1 and "".join(name).startswith(phrase[0])}
            if found:
                if exact_used and n < exact_used:
                    return None
                return n, tuple(sorted(found))
        return None

    def take_coast(self, candidates: Sequence[str]) -> tuple[str | None, int]:
        """An optional coast after a place, in the usual spellings: ``/nc``, ``(sc)``,
        `` nc``, ``n.c.``, ``(n/c)``, ``-nc`` (joined to the name), ``north coast``, ``(Nth
        Coast)``, ``/north``. A bare direction word after a place (``s``, ``north``) is not
        taken for a coast: ``S`` there is a support, ``Nth`` the North Sea."""
        provinces = {province_of(c) for c in candidates}
        token = self.peek()
        if token is None:
            return None, 0
        start = self.i
        closing = False
        explicit = False
        if token.kind in ("slash", "lparen"):
            closing = token.kind == "lparen"
            self.i += 1
            explicit = True
        elif token.kind == "dash" and (after := self.peek(1)) is not None \
                and after.glued and after.kind == "word" and after.text in _COAST_CODES \
                and (after.text,) not in self.lexicon.exact:
            self.i += 1  # "Spa-nc": a coast code joined to the name, not a move
            explicit = True
        words: list[_Token] = []
        taken: list[int] = []  # token index after each word, to give back what is not used
        while (t := self.peek()) is not None and len(words) < 3:
            if t.kind == "word":
                words.append(t)
                self.i += 1
                taken.append(self.i)
            elif t.kind == "slash" and len(words) == 1 and len(words[0].text) == 1 \
                    and (letter := self.peek(1)) is not None and letter.kind == "word" \
                    and letter.text == "c":
                self.i += 1  # "n/c"
            else:
                break
        for n in range(len(words), 0, -1):
            spelled = [t.text for t in words[:n]]
            if not explicit and n == 1 and spelled[0] in _DIRECTIONS:
                continue  # a bare "s" after a place is a support, "nth" the North Sea
            hits: list[str] = []
            for key in _coast_keys(spelled):
                hits = [self.variant.coast_names[(p, key)] for p in sorted(provinces)
                        if (p, key) in self.variant.coast_names]
                if hits:
                    break
            generic = bool(_coast_keys(spelled)) and _coast_keys(spelled)[0] in _COAST_CODES
            if hits or (explicit and generic) or (explicit and len(spelled[0]) <= 2 and n == 1):
                self.i = taken[n - 1]
                written_end = end = words[n - 1].end
                if closing and (t := self.peek()) is not None and t.kind == "rparen":
                    self.i += 1
                    end = t.end
                if not hits:
                    names = ", ".join(
                        write_place(c, self.variant)
                        for p in sorted(provinces) for c in self.variant.map.coasts(p)
                    ) or "none"
                    raise InvalidOrderError(
                        f"{self.text[words[0].start:written_end]!r} is not a coast of "
                        f"{'/'.join(write_place(p, self.variant) for p in sorted(provinces))}",
                        text=self.text,
                        span=(words[0].start, written_end),
                        hint=f"the coasts there are: {names}",
                    )
                return hits[0], end
        # not a coast: give the words back
        self.i = start
        return None, 0

    def place(self, what: str) -> _Place:
        """A place that must be there; raises a clear error if not."""
        token = self.peek()
        if token is None:
            raise self.error(f"the order ends where {what} should follow",
                             span=(len(self.text), len(self.text)),
                             hint=f"add {what}")
        found = self.try_place()
        if found is not None:
            return found
        if token.kind != "word":
            raise self.error(f"expected {what} but found {token.text!r}")
        raise self._unknown(token)

    def _suggestions(self, name: str) -> list[str]:
        """The places ``name`` may have meant (none once the sheet's allowance is spent)."""
        memo = self.lexicon.suggestion_memo
        kept = memo.get(name)
        if kept is not None:
            return list(kept)
        if self.allowance is not None:
            if self.allowance.suggestions <= 0:
                return []
            self.allowance.suggestions -= 1
        close = difflib.get_close_matches(name, list(self.variant.names), n=4, cutoff=0.6)
        suggestions: list[str] = []
        for key in close:
            text = _described(self.variant.names[key], self.variant)
            if text not in suggestions:
                suggestions.append(text)
        memo[name] = tuple(suggestions)
        return suggestions

    def _unknown(self, token: _Token) -> UnknownNameError:
        name = token.text
        suggestions = self._suggestions(name)
        hint = f"did you mean {' or '.join(suggestions)}?" if suggestions else \
            _how_to_name(self.variant)
        return UnknownNameError(
            f"{self.text[token.start:token.end]!r} is not a place on {self.variant.map_title}",
            name=name,
            suggestions=suggestions,
            text=self.text,
            span=(token.start, token.end),
            hint=hint,
        )

    def take_move_separator(self) -> bool:
        token = self.peek()
        if token is None:
            return False
        if token.kind == "dash":
            self.i += 1
            if self.word() in ("to", "into"):
                self.i += 1
            return True
        if token.kind == "word" and token.text in _MOVE:
            self.i += 1
            if self.word() in ("to", "into"):
                self.i += 1
            return True
        return False

    def take_via(self) -> bool:
        words = (self.word(), self.word(1))
        if words[0] == "via":
            self.i += 2 if words[1] in ("convoy", "c", "sea") else 1
            return True
        if words[0] == "by" and words[1] in ("convoy", "sea"):
            self.i += 2
            return True
        return False

    # the grammar
    def parse(self) -> _Draft:
        draft = _Draft()
        if not self.tokens:
            raise InvalidOrderError("the order is empty", text=self.text, span=(0, 0),
                                    hint="write e.g. 'A Par-Bur'")
        draft.span = (self.tokens[0].start, self.tokens[-1].end)
        if self.word() in _WAIVE or (self.word() in _BUILD and self.word(1) in ("none", "nothing")):
            self.i += 1 if self.word() in _WAIVE else 2
            draft.action = "waive"
            self.expect_end()
            return draft
        leading: str | None = None
        if self.word() in _BUILD:
            leading = "build"
            self.i += 1
            self.skip_build_prose()
        elif self.word() in _DISBAND:
            leading = "disband"
            self.i += 1
        elif self.word() in _RETREAT:
            leading = "retreat"
            self.i += 1
        elif self.kinds and self.word() in self.kinds.leading:
            leading = self.kinds.leading[self.word() or ""].name
            self.i += 1
        elif self.implied is not None:
            leading = self.implied
            self.skip_build_prose()
        draft.action_written = leading is not None
        unit_start = self.peek()
        draft.unit_type = self.take_unit_type()
        if leading == "build" and self.word() in ("in", "at"):
            self.i += 1
        if self.word() not in self.lexicon.keywords or self.word() in _UNIT_TYPES:
            draft.place = self.place("the unit's place")
        if draft.unit_type is None:
            draft.unit_type = self.take_unit_type()  # "Edi F" is unusual, but "Build Edi F" happens
        if unit_start is not None:
            last = self.tokens[self.i - 1] if self.i > 0 else unit_start
            draft.unit_span = (unit_start.start,
                               draft.place.span[1] if draft.place else last.end)
        if leading == "build":
            if self.word() in _BUILD:
                self.i += 1
            draft.action = "build"
        elif leading == "disband":
            if self.word() in _DISBAND:
                self.i += 1
            draft.action = "disband"
        elif leading == "retreat":
            self.take_move_separator()
            draft.action = "retreat"
            draft.destination = self.place("where the unit retreats to")
        elif leading is not None and leading in self.kinds.by_name:
            kind = self.kinds.by_name[leading]
            if self.kinds.by_word.get(self.word() or "") is kind:
                self.i += 1
            self.parse_kind(draft, kind)
        else:
            self.parse_action(draft)
        self.expect_end()
        return draft

    def parse_action(self, draft: _Draft) -> None:
        word = self.word()
        draft.action_written = not self.at_end()
        if self.at_end():
            draft.action = "hold"
        elif word in _HOLD:
            self.i += 1
            draft.action = "hold"
        elif word in _SUPPORT:
            self.i += 1
            self.parse_supported(draft)
        elif word in _CONVOY:
            self.i += 1
            draft.target_power = self.take_power()
            if self.take_unit_type() is UnitType.FLEET:
                raise self.error("only armies can be convoyed", span=draft.span,
                                 hint="write the army's place, e.g. 'C A Lon-Bel'")
            draft.target = self.place("the convoyed army's place")
            if not self.take_move_separator() and self.try_peek_place() is None:
                raise self.error("a convoy order names where the army goes",
                                 hint="write e.g. 'F Nth C A Lon-Bel'")
            draft.destination = self.place("the convoy's destination")
            draft.action = "convoy"
        elif word in _RETREAT:
            self.i += 1
            self.take_move_separator()
            draft.destination = self.place("where the unit retreats to")
            draft.action = "retreat"
        elif word in _DISBAND:
            self.i += 1
            draft.action = "disband"
        elif word in _BUILD:
            self.i += 1
            draft.action = "build"
        elif self.kinds and word in self.kinds.by_word:
            self.i += 1
            self.parse_kind(draft, self.kinds.by_word[word or ""])
        elif self.take_move_separator() or self.try_peek_place() is not None:
            draft.destination = self.place("the destination")
            draft.via_convoy = self.take_via()
            draft.action = "move"
        else:
            token = self.peek()
            assert token is not None
            if token.kind == "word":
                raise self._unknown_or_invalid(token)
            raise self.error(f"unexpected {token.text!r}",
                             hint="write e.g. 'A Par-Bur', 'A Par H', 'A Par S A Mar-Bur'")

    def _unknown_or_invalid(self, token: _Token) -> OrderTextError:
        if difflib.get_close_matches(token.text, list(self.variant.names), n=1, cutoff=0.6):
            return self._unknown(token)
        return self.error(
            f"{self.text[token.start:token.end]!r} is not an order word or a place",
            hint="after the unit write '-' and a place, H, S, C, R, D or B",
        )

    def try_peek_place(self) -> _Place | None:
        saved = self.i
        try:
            return self.try_place()
        except OrderTextError:
            return None
        finally:
            self.i = saved

    def parse_kind(self, draft: _Draft, kind: OrderKind) -> None:
        """The rest of an order of a variant's own kind, after its keyword: what it names, if
        anything (an id the kind knows, such as a corner's, or a place)."""
        draft.action = kind.name
        rest = self.tokens[self.i:]
        if kind.argument is None:
            return
        if not rest:
            if kind.argument_optional:
                return
            raise self.error(f"a {kind.name} order names {kind.argument}",
                             span=(len(self.text), len(self.text)),
                             hint=f"write {kind.argument} after {kind.name.upper()}")
        written = self.text[rest[0].start:rest[-1].end].lower()
        named = kind.read_id(self.variant, written)
        if named is not None:
            draft.point = named
            self.i = len(self.tokens)
            return
        draft.target = self.place(kind.argument)

    def parse_supported(self, draft: _Draft) -> None:
        draft.target_power = self.take_power()
        draft.target_type = self.take_unit_type()
        draft.target = self.place("the supported unit's place")
        if self.at_end() or self.word() in _HOLD:
            if not self.at_end():
                self.i += 1
            draft.action = "support_hold"
            return
        if self.take_move_separator() or self.try_peek_place() is not None:
            draft.destination = self.place("where the supported unit moves")
            self.take_via()  # "S A Lon-Bel via convoy": the support is the same
            draft.action = "support_move"
            return
        token = self.peek()
        assert token is not None
        raise self.error(f"unexpected {token.text!r} in a support order",
                         hint="write 'S A Mun' (hold) or 'S A Mun-Ber' (move)")

    def expect_end(self) -> None:
        token = self.peek()
        if token is not None:
            raise self.error(
                f"unexpected {self.text[token.start:]!r} after the order",
                span=(token.start, len(self.text)),
                hint="write one order at a time, or separate orders with commas or new lines",
            )


# -- settling what the text leaves open ----------------------------------------------------


def _described(loc: str, variant: Variant) -> str:
    """A place in a message that offers it: by code and name (``TYR (Tyrolia)``), or, where
    places are written by name, by name and code (``Columbia (US) (n21)``)."""
    if variant.writes_names:
        return f"{write_place(loc, variant)} ({loc})"
    return f"{loc.upper()} ({_lexicon(variant).display.get(loc, loc)})"


def _how_to_name(variant: Variant) -> str:
    """What to write for a place, for a name the parser does not know."""
    if not variant.writes_names:
        return "write the province's name or its three-letter abbreviation"
    provinces = variant.map.provinces.values()
    land = next((p.id for p in provinces if p.terrain is not Terrain.SEA and p.id.isalnum()
                 and not p.id.isdigit()), None)
    sea = next((p.id for p in provinces if p.terrain is Terrain.SEA), None)
    examples = " or ".join(code for code in (land, sea) if code)
    return f"write the place's name as the map gives it, or its code ({examples})" if examples \
        else "write the place's name as the map gives it"


def _ambiguous(text: str, what: str, span: tuple[int, int], readings: Sequence[str],
               variant: Variant) -> AmbiguousOrderError:
    described = " or ".join(_described(r, variant) for r in readings)
    return AmbiguousOrderError(
        f"{text[span[0]:span[1]]!r} could mean {described}",
        candidates=[write_place(r, variant) for r in readings],
        text=text,
        span=span,
        hint=f"write {what} so that it has one meaning",
    )


class _Settler:
    """Turns a draft into an order, using the position where there is one."""

    def __init__(self, variant: Variant, text: str, position: Position | None,
                 power: str | None) -> None:
        self.variant = variant
        self.map = variant.map
        self.text = text
        self.position = position
        self.power = power
        self.names = _lexicon(variant).display

    def units_here(self) -> dict[str, Unit]:
        if self.position is None:
            return {}
        if self.position.phase.type is PhaseType.RETREATS:
            return {d.unit.province: d.unit for d in self.position.dislodged}
        return dict(self.position.units)

    def settle(self, draft: _Draft) -> Order:
        power = draft.power or self.power
        if draft.action == "waive":
            return Waive(power)
        if not draft.action_written and self.position is not None \
                and self.position.phase.type is PhaseType.ADJUSTMENTS:
            draft.action = self.adjustment_meant(draft, power)
        unit_type, location, unit = self.settle_unit(draft, power)
        if power is None and unit is not None:
            power = unit.power
        common = {"power": power}
        action = draft.action
        if action == "move" and self.position is not None \
                and self.position.phase.type is PhaseType.RETREATS:
            action = "retreat"
        if action == "hold":
            return Hold(unit_type, location, **common)
        if action == "disband":
            return Disband(unit_type, location, **common)
        if action == "build":
            return Build(unit_type, location, **common)
        kind = self.variant.kinds.by_name.get(action) if self.variant.kinds else None
        if kind is not None:
            argument = self.settle_argument(draft, kind, unit_type, location)
            return kind.make(unit_type, location, argument, power)
        if action in ("move", "retreat"):
            assert draft.destination is not None
            destination = self.settle_destination(draft.destination, unit_type, location)
            if action == "retreat":
                return Retreat(unit_type, location, destination, **common)
            return Move(unit_type, location, destination, draft.via_convoy, **common)
        assert draft.target is not None
        if action == "convoy":
            assert draft.destination is not None
            army_at = self.settle_target(draft.target, UnitType.ARMY, draft.target_power)[1]
            destination = self.settle_any(draft.destination, army=True)
            return Convoy(unit_type, location, province_of(army_at), province_of(destination),
                          army_power=draft.target_power, **common)
        if action == "support_hold":
            target_type, target_at = self.settle_target(draft.target, draft.target_type,
                                                        draft.target_power)
            return SupportHold(unit_type, location, target_at, target_type,
                               supported_power=draft.target_power, **common)
        assert draft.destination is not None
        destination = self.settle_support_destination(draft.destination, unit_type, location)
        target_type, target_at = self.settle_target(draft.target, draft.target_type,
                                                    draft.target_power, moving_to=destination)
        return SupportMove(unit_type, location, target_at, destination, target_type,
                           supported_power=draft.target_power, **common)

    def settle_argument(self, draft: _Draft, kind: OrderKind, unit_type: UnitType,
                        location: str) -> str | None:
        """What an order of a variant's kind names: an id read as such, or the one reading the
        kind gives of the place written (None when it names nothing)."""
        if draft.point is not None:
            return draft.point
        place = draft.target
        candidates = tuple(place.candidates) if place is not None else ()
        if place is not None and place.coast is not None:  # a coast written ("StP/NC") first
            candidates = (place.coast, *(c for c in candidates if c != place.coast))
        found = kind.readings(self.variant, (unit_type, location), candidates)
        if len(found) == 1:
            return found[0]
        if place is None:
            return None
        if not found:
            message, hint = kind.unread(self.variant, self.text[place.span[0]:place.span[1]])
            raise InvalidOrderError(message, text=self.text, span=place.span, hint=hint)
        raise AmbiguousOrderError(
            f"{place.written!r} could mean {' or '.join(f.upper() for f in found)}",
            candidates=[f.upper() for f in found], text=self.text, span=place.span,
            hint=f"name {kind.argument or 'it'} so that it has one meaning")

    def adjustment_meant(self, draft: _Draft, power: str | None) -> str:
        """What a bare unit ("A Vie") means in an adjustment phase: a removal when the power
        must remove units and has one there, a build when it is due builds and the place is
        empty; anything else has no meaning the rules allow (1971 VII.4, 1992 VII.2)."""
        assert self.position is not None
        units = self.position.units
        place = draft.place
        unit = None
        if place is not None:
            on = [units[province_of(c)] for c in place.candidates if province_of(c) in units]
            unit = on[0] if len(on) == 1 else None
        elif draft.unit_type is not None and power is not None:
            mine = [u for u in units.values()
                    if u.power == power and u.type is draft.unit_type]
            unit = mine[0] if len(mine) == 1 else None
        who = power or (unit.power if unit is not None else None)
        written = self.text[draft.span[0]:draft.span[1]]
        hint = f"write 'Build {written}' or 'Remove {written}'"
        if who is None:
            raise InvalidOrderError(
                "in an adjustment phase this order needs a power, to say whose build it is",
                text=self.text, span=draft.span, hint=hint)
        due = adjustment_counts(self.position).get(who, 0)
        name = self.variant.power_name(who)
        if due < 0 and unit is not None and unit.power == who:
            return "disband"
        if due > 0 and unit is None and place is not None:
            return "build"
        if due == 0:
            reason = f"{name} has no builds or removals this winter"
        elif due > 0:
            where = self.names.get(unit.province, unit.province) if unit is not None else ""
            reason = (f"{name} builds this winter, and {where} is occupied" if where
                      else f"{name} builds this winter: name the place of the new unit")
        else:
            reason = f"{name} removes units this winter, and has no such unit there"
        raise InvalidOrderError(
            f"in an adjustment phase a unit's name alone must mean a build or a removal: "
            f"{reason}", text=self.text, span=draft.span, hint=hint)

    def settle_unit(self, draft: _Draft, power: str | None) -> tuple[UnitType, str, Unit | None]:
        units = self.units_here()
        place = draft.place
        if place is None:
            # "F Stands", "F S A Bul-Rum": the power's only unit of that type
            if draft.unit_type is None:
                raise InvalidOrderError("the order does not say which unit it is for",
                                        text=self.text, span=draft.span,
                                        hint="start with the unit, e.g. 'A Par'")
            if self.position is None or power is None:
                raise InvalidOrderError(
                    "the unit's place is missing", text=self.text, span=draft.unit_span,
                    hint="write where the unit is, e.g. 'F Nth'",
                )
            mine = [u for u in units.values() if u.power == power and u.type is draft.unit_type]
            kind = "fleet" if draft.unit_type is UnitType.FLEET else "army"
            if len(mine) == 1:
                return mine[0].type, mine[0].location, mine[0]
            if not mine:
                raise InvalidOrderError(
                    f"the order names no place and {self.variant.power_name(power)} has no {kind}",
                    text=self.text, span=draft.unit_span, hint="write where the unit is",
                )
            raise _ambiguous(self.text, "the unit's place", draft.unit_span,
                             [u.location for u in mine], self.variant)
        if draft.action == "build":
            location = self.settle_build_location(place, draft.unit_type)
            unit_type = draft.unit_type
            if unit_type is None:
                unit_type = self.build_type(location, place, draft)
            if unit_type is UnitType.ARMY:
                location = province_of(location)
            return unit_type, location, None
        candidates = [c for c in place.candidates if province_of(c) in units]
        fitting = [c for c in candidates
                   if (draft.unit_type is None or units[province_of(c)].type is draft.unit_type)
                   and (power is None or units[province_of(c)].power == power)]
        chosen = _pick(place, fitting) or _pick(place, candidates)
        if chosen is None:
            options = fitting or candidates
            if len(options) > 1 or (not options and not place.exact
                                    and len(place.candidates) > 1):
                raise _ambiguous(self.text, "the unit's place", place.span,
                                 options or place.candidates, self.variant)
            chosen = place.candidates[0]
        unit = units.get(province_of(chosen))
        if unit is not None and (draft.unit_type is None or unit.type is draft.unit_type):
            return unit.type, unit.location, unit
        unit_type = draft.unit_type
        if unit_type is None:
            if self.position is not None:
                raise InvalidOrderError(
                    f"there is no unit in {self.names.get(province_of(chosen), chosen)}",
                    text=self.text, span=place.span,
                    hint="check the place, or write A or F before it",
                )
            raise InvalidOrderError(
                "the unit type is missing", text=self.text, span=draft.unit_span,
                hint=f"write 'A {place.written}' or 'F {place.written}'",
            )
        location = place.coast or province_of(chosen)
        if unit_type is UnitType.ARMY:
            location = province_of(location)
        return unit_type, location, None

    def fallback(self, place: _Place, what: str) -> str:
        """The first reading when it is an exact name or the only one; else the text is
        ambiguous."""
        if place.exact or len(place.candidates) == 1:
            return place.candidates[0]
        raise _ambiguous(self.text, what, place.span, place.candidates, self.variant)

    def build_type(self, location: str, place: _Place, draft: _Draft) -> UnitType:
        """The unit a build without a type must mean: the only one that can stand there (an
        army inland, a fleet at sea or on a named coast); on a coast it could be either, so
        the order has two meanings and is not followed (1971 VII.4, 1992 VII.2)."""
        terrain = self.map.terrain(location)
        if location != province_of(location) or terrain is Terrain.SEA:
            return UnitType.FLEET
        if terrain is Terrain.LAND:
            return UnitType.ARMY
        name = self.names.get(province_of(location), location)
        code = write_place(province_of(location), self.variant) if self.variant.writes_names \
            else province_of(location).title()
        raise AmbiguousOrderError(
            f"{self.text[draft.span[0]:draft.span[1]]!r} could build an army or a fleet: "
            f"{name} is on the coast",
            candidates=[f"A {code}", f"F {code}"] if self.variant.writes_names
            else [f"A {code.upper()}", f"F {code.upper()}"], text=self.text,
            span=place.span, hint=f"write 'Build A {code}' or 'Build F {code}'")

    def settle_build_location(self, place: _Place, unit_type: UnitType | None) -> str:
        if place.coast is not None:
            return place.coast
        chosen = self.fallback(place, "the place")
        coasts = self.map.coasts(province_of(chosen))
        if unit_type is UnitType.FLEET and coasts:
            raise _ambiguous(self.text, "the coast", place.span, coasts, self.variant)
        return chosen

    def fits_terrain(self, unit_type: UnitType, location: str) -> bool:
        """True if a unit of this type could ever stand in the location's province."""
        terrain = self.map.terrain(location)
        if unit_type is UnitType.ARMY:
            return terrain in (Terrain.LAND, Terrain.COAST)
        return terrain in (Terrain.SEA, Terrain.COAST)

    def choose_destination(self, place: _Place, unit_type: UnitType, location: str,
                           what: str) -> str:
        """The reading of a destination: the exact name if the unit type can go there at all,
        else the one reading that the unit can reach (or, failing that, enter)."""
        candidates = place.candidates
        fits = [c for c in candidates if self.fits_terrain(unit_type, c)]
        if place.exact and candidates[0] in fits:
            return candidates[0]
        reachable = [c for c in fits
                     if self.map.can_reach(unit_type, location, province_of(c))]
        chosen = _pick(place, reachable) or _pick(place, fits)
        if chosen is not None:
            return chosen
        if len(reachable) > 1 or len(fits) > 1:
            raise _ambiguous(self.text, what, place.span,
                             reachable if len(reachable) > 1 else fits, self.variant)
        return self.fallback(place, what)

    def settle_destination(self, place: _Place, unit_type: UnitType, location: str) -> str:
        chosen = self.choose_destination(place, unit_type, location, "the destination")
        province = province_of(chosen)
        if unit_type is UnitType.ARMY:
            return province  # an army ignores a coast (DATC 6.B.12)
        if place.coast is not None and province_of(place.coast) == province:
            return place.coast
        if not self.map.coasts(province):
            return province
        options = self.map.fleet_coasts_reachable(location, province)
        if len(options) == 1:
            return options[0]
        if len(options) > 1:
            raise _ambiguous(self.text, "the coast (e.g. '/nc')", place.span, options,
                             self.variant)
        return province

    def settle_support_destination(self, place: _Place, unit_type: UnitType,
                                   location: str) -> str:
        if place.exact:
            chosen = place.candidates[0]
        else:
            chosen = self.choose_destination(place, unit_type, location, "the destination")
        if place.coast is not None and province_of(place.coast) == province_of(chosen):
            return place.coast
        return province_of(chosen)

    def settle_any(self, place: _Place, *, army: bool) -> str:
        candidates = list(place.candidates)
        if army:
            land = [c for c in candidates if self.map.terrain(c) in (Terrain.LAND, Terrain.COAST)]
            candidates = land or candidates
        picked = _pick(place, candidates)
        if picked is not None:
            return picked
        if len(candidates) > 1:
            raise _ambiguous(self.text, "the place", place.span, candidates, self.variant)
        return candidates[0]

    def settle_target(self, place: _Place, unit_type: UnitType | None,
                      power: str | None, *, moving_to: str | None = None) \
            -> tuple[UnitType | None, str]:
        """The supported or convoyed unit; for a supported move, a unit that could make it."""
        units = dict(self.position.units) if self.position is not None else {}
        with_unit = [c for c in place.candidates if province_of(c) in units
                     and (unit_type is None or units[province_of(c)].type is unit_type)
                     and (power is None or units[province_of(c)].power == power)]
        if moving_to is not None and len(with_unit) > 1:
            able = [c for c in with_unit
                    if self.map.can_reach(units[province_of(c)].type,
                                          units[province_of(c)].location,
                                          province_of(moving_to))]
            with_unit = able or with_unit
        chosen = _pick(place, with_unit)
        if chosen is None and len(with_unit) > 1:
            raise _ambiguous(self.text, "the supported unit's place", place.span, with_unit,
                             self.variant)
        if chosen is None:
            chosen = self.fallback(place, "the unit's place")
        unit = units.get(province_of(chosen))
        if unit is not None and (unit_type is None or unit.type is unit_type):
            return unit.type, unit.location
        location = place.coast or province_of(chosen)
        if unit_type is UnitType.ARMY:
            location = province_of(location)
        return unit_type, location


def _pick(place: _Place, options: Sequence[str]) -> str | None:
    """The reading among ``options`` (those that fit): the exact name if it fits, else the only
    one that fits; None if none or several do."""
    if place.exact and place.candidates[0] in options:
        return place.candidates[0]
    unique = list(dict.fromkeys(options))
    return unique[0] if len(unique) == 1 else None


# -- public API ----------------------------------------------------------------------------


def _variant_of(position: Position | None, variant: Variant | None) -> Variant:
    if position is not None:
        return position.variant
    if variant is not None:
        return variant
    return load_variant("classical")


def _strip_power_prefix(
    variant: Variant, tokens: list[_Token]
) -> tuple[str | None, list[_Token]]:
    """``England: A Lon-Nth`` or ``ENGLAND A Lon-Nth``: the power written before the order."""
    key = tuple((t.kind, t.text) for t in tokens[:4])
    memo = _lexicon(variant).power_memo
    found = memo.get(key)
    if found is None:
        found = memo[key] = _written_power(variant, tokens)
    power, taken = found
    return power, tokens[taken:]


def _written_power(variant: Variant, tokens: list[_Token]) -> tuple[str | None, int]:
    """The power written at the start of ``tokens`` and how many tokens it takes (its colon
    included), reading no further than the fourth token."""
    for length in (3, 2, 1):
        if len(tokens) < length:
            continue
        if any(t.kind not in ("word", "dash") for t in tokens[:length]):
            continue
        name = normalize_name(" ".join(t.text for t in tokens[:length] if t.kind == "word"))
        power = variant.power_names.get(name)
        if power is None and "".join(t.text for t in tokens[:length]) in variant.power_names:
            power = variant.power_names["".join(t.text for t in tokens[:length])]
        if power is None:
            hyphened = "-".join(t.text for t in tokens[:length] if t.kind == "word")
            power = variant.power_names.get(hyphened)
        if power is None:
            continue
        rest = tokens[length:]
        if rest and rest[0].kind == "colon":
            return power, length + 1
        if not rest:
            return power, length
        if rest[0].kind == "word" and (rest[0].text in _STARTS_AFTER_POWER
                                       or rest[0].text in variant.kinds.leading):
            return power, length
    return None, 0


def parse_order(
    text: str,
    position: Position | None = None,
    *,
    power: str | None = None,
    variant: Variant | None = None,
) -> Order:
    """Read one order as people write it.

    ``position`` settles what the text leaves open (unit type, coasts, the only fleet); without
    it the text must name the unit type and the place. ``power`` is the power giving the order.

    >>> str(parse_order("A Liv.\u2014Yor."))
    'A LVP - YOR'
    >>> str(parse_order("f stp(sc) to bot"))
    'F STP/SC - BOT'

    :raises InvalidOrderError: the text cannot be read.
    :raises UnknownNameError: a name is not a place of the variant (with suggestions).
    :raises AmbiguousOrderError: the text can be read several ways (every reading listed).
    """
    return _parse_one(text, position, power, _variant_of(position, variant), None)


def _parse_one(text: str, position: Position | None, power: str | None, the_variant: Variant,
               implied: str | None, allowance: _Allowance | None = None) -> Order:
    """:func:`parse_order`, with the verb (``build``, ``disband``) a sheet carries from the
    part of the sentence before ("builds F Kiel and A Mun")."""
    tokens = _tokens(_lexicon(the_variant), text)
    written_power, tokens = _strip_power_prefix(the_variant, tokens)
    if written_power is not None and power is not None and written_power != power:
        raise InvalidOrderError(
            f"the order is written for {the_variant.power_name(written_power)} but given by "
            f"{the_variant.power_name(power)}",
            text=text, span=(0, tokens[0].start if tokens else len(text)),
            hint="give each power's orders under its own name",
        )
    draft = _Parser(the_variant, text, tokens, implied, allowance).parse()
    draft.power = written_power or power
    order = _Settler(the_variant, text, position, draft.power).settle(draft)
    if draft.power is not None and order.power != draft.power:
        order = with_power(order, draft.power)
    return order


def format_order(order: Order) -> str:
    """The canonical text of an order (``A PAR - BUR``), which :func:`parse_order` reads back."""
    return str(order)


@dataclass(frozen=True, slots=True)
class ParsedOrder:
    """One order of a sheet as written, with what it was read as, or why it was not."""

    text: str
    line: int
    power: str | None
    order: Order | None
    error: OrderTextError | None = None

    @property
    def ok(self) -> bool:
        """True if the order was read."""
        return self.order is not None


@dataclass(frozen=True)
class OrderSheet:
    """A sheet of orders read by :func:`parse_orders`: every entry, read or not, in order."""

    entries: tuple[ParsedOrder, ...]
    powers_named: tuple[str, ...] = field(default=())
    """Powers whose name headed a part of the sheet (even with no orders)."""

    @property
    def orders(self) -> tuple[Order, ...]:
        """Every order that was read."""
        return tuple(e.order for e in self.entries if e.order is not None)

    @property
    def errors(self) -> tuple[OrderTextError, ...]:
        """Every error, with its line number set."""
        return tuple(e.error for e in self.entries if e.error is not None)

    def by_power(self) -> dict[str, list[Order]]:
        """The orders read, grouped by the power that gave them."""
        out: dict[str, list[Order]] = {}
        for entry in self.entries:
            if entry.order is not None:
                out.setdefault(entry.power or entry.order.power or "", []).append(entry.order)
        return out

    def __iter__(self) -> Iterator[ParsedOrder]:
        return iter(self.entries)


_STARTS_ORDER_AFTER = _SUPPORT | _CONVOY | _BUILD | {"and", "new"}


def _is_power_word(variant: Variant, word: str) -> bool:
    """A power's name, adjective or alias, or an abbreviation of one ("Turk.")."""
    if word in variant.power_names:
        return True
    return len(word) >= 3 and len(
        {p for name, p in variant.power_names.items() if name.startswith(word)}
    ) == 1


def _split_segments(tokens: list[_Token], variant: Variant,
                    limit: int) -> list[list[_Token]]:
    """Cut a line into orders at commas, at ``and``, and at a unit letter that starts an order;
    beyond ``limit`` orders, the last one holds the rest of the line."""
    segments: list[list[_Token]] = [[]]
    for index, token in enumerate(tokens):
        current = segments[-1]
        if len(segments) > limit:
            current.append(token)
            continue
        if token.kind == "sep" or (token.kind == "word" and token.text == "and"):
            if current:
                segments.append([])
            continue
        if (
            token.kind == "word"
            and token.text in ("a", "f", "army", "fleet")
            and current
            and index > 0
        ):
            before = tokens[index - 1]
            if before.kind == "word" and before.text in ("a", "an") \
                    and token.text in ("army", "fleet"):
                segments[-1].append(token)  # "build a fleet in Kiel": an article, not a unit
                continue
            follows_power = before.kind == "word" and _is_power_word(variant, before.text)
            follows_word = before.kind == "word" and (
                before.text in _STARTS_ORDER_AFTER or before.text in _DISBAND
                or before.text in _RETREAT or before.text in variant.kinds.leading
            )
            if not follows_power and not follows_word and before.kind not in ("colon", "dash"):
                segments.append([])
        elif current and _names_power_mid_line(variant, tokens, index):
            segments.append([])  # "F Edi. Germany builds F Kiel": Germany's orders start
        segments[-1].append(token)
    return [s for s in segments if s]


def _names_power_mid_line(variant: Variant, tokens: list[_Token], index: int) -> bool:
    """True if the word at ``index``, in the middle of a line, starts another power's orders as
    a name at the start of a line does ("Germany builds", "Germany: A Mun-Ruh"), rather than
    naming the owner of a unit supported or convoyed ("S Russian A Sil-Ber")."""
    token, before = tokens[index], tokens[index - 1]
    if token.kind != "word" or token.text in _KEYWORDS:
        return False
    if before.kind in ("colon", "dash", "slash", "lparen") or (
            before.kind == "word" and (before.text in _STARTS_ORDER_AFTER
                                       or before.text in _KEYWORDS)):
        return False
    power, rest = _strip_power_prefix(variant, tokens[index:index + 4])
    return power is not None and (bool(rest) or index + 4 < len(tokens))


def _parse_alone(piece: str, position: Position | None, power: str | None,
                 variant: Variant, allowance: _Allowance, verb: str | None = None) -> Order | None:
    """``piece`` read as an order of its own (with the carried ``verb``), or None if it is
    not one."""
    try:
        return _parse_one(piece, position, power, variant, verb, allowance)
    except OrderTextError:
        return None


def _without_stray_marks(line: str, segment: list[_Token]) -> str | None:
    """The text of ``segment`` without the marks that are no part of an order at its ends
    (an apostrophe, a star, a question mark...), or None if it has none there."""
    first, last = 0, len(segment)
    while first < last and segment[first].kind == "other":
        first += 1
    while last > first and segment[last - 1].kind == "other":
        last -= 1
    if (first, last) == (0, len(segment)) or first == last:
        return None
    end = segment[last - 1].end
    while end < len(line) and line[end] == ".":
        end += 1  # the abbreviation's dot, as for any order
    return line[segment[first].start:end]


def parse_orders(
    text: str,
    position: Position | None = None,
    *,
    power: str | None = None,
    variant: Variant | None = None,
) -> OrderSheet:
    """Read a sheet of orders: one bad order never loses the others.

    A line starting with a power's name and a colon (``England: A Liv-Yor, F Lon-Nth``), or a
    line that is only a power's name, says whose orders follow. Orders are separated by new
    lines, commas, semicolons, or simply start with their unit letter (``A Liv.-Yor. F Lon.-Nth``).

    At most :data:`SHEET_ORDER_LIMIT` orders are read: the first piece beyond is an entry with
    an error saying so, and nothing after it is read.
    """
    the_variant = _variant_of(position, variant)
    allowance = _Allowance()
    leading_kinds = the_variant.kinds.leading  # a variant's verbs that may lead ("Mobilise")
    entries: list[ParsedOrder] = []
    named: list[str] = []
    current_power = power
    for line_no, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        tokens = _tokens(_lexicon(the_variant), line)
        header, rest = _strip_power_prefix(the_variant, tokens)
        if header is not None:
            if power is not None and header != power:
                error = InvalidOrderError(
                    f"these orders are for {the_variant.power_name(header)}, but only "
                    f"{the_variant.power_possessive(power)} "
                    "orders are taken here",
                    text=line, span=(tokens[0].start, tokens[0].end), line=line_no,
                    hint="send each power's orders under its own name",
                )
                entries.append(ParsedOrder(stripped, line_no, header, None, error))
                continue
            current_power = header
            if header not in named:
                named.append(header)
            tokens = rest
        carried: str | None = None  # "builds F Kiel and A Mun": the verb covers both
        for segment in _split_segments(tokens, the_variant, SHEET_ORDER_LIMIT - len(entries)):
            # "England builds F Edi., Germany builds F Kiel": a power named in the middle of a
            # line starts its orders, as it does at the start of a line
            named_here, after_name = _strip_power_prefix(the_variant, segment) \
                if segment[0].kind == "word" else (None, segment)
            if named_here is not None and named_here != current_power and power is None:
                current_power = named_here
                carried = None
                if named_here not in named:
                    named.append(named_here)
                if not after_name:
                    continue
                segment = after_name
            end = segment[-1].end
            while end < len(line) and line[end] == ".":
                end += 1  # keep the abbreviation's dot: the text is reported as written
            piece = line[segment[0].start:end]
            if len(entries) >= SHEET_ORDER_LIMIT:
                entries.append(ParsedOrder(piece, line_no, current_power, None, InvalidOrderError(
                    f"more than {SHEET_ORDER_LIMIT} orders in one sheet: this one and those "
                    "after it are not read",
                    text=line, span=(segment[0].start, len(line)), line=line_no,
                    hint="send fewer orders at once (one power's orders are far fewer)")))
                return OrderSheet(tuple(entries), tuple(named))
            if len(segment) > ORDER_TOKEN_LIMIT:
                entries.append(ParsedOrder(piece, line_no, current_power, None, InvalidOrderError(
                    f"this is too long to be one order (more than {ORDER_TOKEN_LIMIT} words "
                    "and signs)", text=line, span=(segment[0].start, end), line=line_no,
                    hint="put each order on a line of its own")))
                carried = None
                continue
            first = segment[0].text if segment[0].kind == "word" else ""
            if first in _BUILD and not (len(segment) > 1 and segment[1].text in ("none",
                                                                                  "nothing")):
                carried = "build"
            elif first in _DISBAND:
                carried = "disband"
            elif first in leading_kinds:
                carried = leading_kinds[first].name
            elif (first in _KEYWORDS or first in the_variant.kinds.by_word) \
                    and first not in _UNIT_TYPES:
                carried = None
            verb = carried if first not in _BUILD | _DISBAND and first not in leading_kinds \
                else None
            try:
                order = _parse_one(piece, position, current_power, the_variant, verb, allowance)
            except OrderTextError as exc:
                # "A Vie.-Bud' A Bud.-Ser.": a stray mark between two orders does not lose the
                # first; read without it, the order has one meaning and is followed (1971 VII.4)
                unmarked = _without_stray_marks(line, segment)
                cleaned = None if unmarked is None else \
                    _parse_alone(unmarked, position, current_power, the_variant, allowance, verb)
                if cleaned is not None and unmarked is not None:
                    entries.append(ParsedOrder(unmarked, line_no,
                                               current_power or cleaned.power, cleaned))
                    continue
                # "Mobilise F Guy, F Gib - Pil": an order complete without the carried verb is
                # an order of its own, and the verb covers no more of the line
                alone = _parse_alone(piece, position, current_power, the_variant, allowance) \
                    if verb is not None else None
                if alone is not None:
                    carried = None
                    entries.append(ParsedOrder(piece, line_no, current_power or alone.power,
                                               alone))
                    continue
                shift = segment[0].start
                exc.text = line
                exc.span = (exc.span[0] + shift, exc.span[1] + shift)
                exc.line = line_no
                entries.append(ParsedOrder(piece, line_no, current_power, None, exc))
                continue
            entries.append(ParsedOrder(piece, line_no, current_power or order.power, order))
    return OrderSheet(tuple(entries), tuple(named))
