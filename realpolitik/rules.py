"""Rule editions: named sets of the DATC section 4 options the adjudicator follows.

The rulebooks disagree on a few points (multi-route convoys, convoy paradoxes, convoys to an
adjacent province, civil-disorder removals...). The *Diplomacy Adjudicator Test Cases* (DATC v3.0,
section 4) lists each such issue with its possible answers. A :class:`Rules` value holds one answer
per issue; an *edition* is a named :class:`Rules` value:

========  ======================================================================================
1971      the 1971 rulebook (Games Research)
1982      the rulebooks from 1976 to 1992 (the 3rd edition of the seeds); alias ``1992``
2000      the 2000 rulebook as read by the DATC v2 (convoy to an adjacent province falls back to
          the land route)
2023      the 2023 rulebook with the DATC v3.0 preferences (the default)
dptg      the Diplomacy Player's Technical Guide: as 2023, but an army goes by convoy to an
          adjacent province only when its order says "via convoy"
========  ======================================================================================

``docs/rules.md`` has the table of every option per edition, with the rulebook text.

>>> rules_for("1971").multi_route_convoy
'any_route_disrupted'
>>> rules_for("2023", {"4.A.1": "any_route_disrupted"}).multi_route_convoy
'any_route_disrupted'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

__all__ = ["EDITIONS", "OPTIONS", "Option", "Rules", "rules_for"]


@dataclass(frozen=True, slots=True)
class Option:
    """One DATC section 4 issue: its id, the :class:`Rules` field and the allowed values."""

    datc_id: str
    field: str
    title: str
    values: Mapping[str, str]
    """value -> one-line meaning."""


OPTIONS: tuple[Option, ...] = (
    Option("4.A.1", "multi_route_convoy", "multi-route convoy disruption", MappingProxyType({
        "any_route_disrupted": "a convoy fails when a fleet on any of its routes is dislodged "
                               "(1971 XII.4)",
        "all_routes_disrupted": "a convoy fails only when every route is disrupted "
                                "(1982 XIII.4 and later)",
    })),
    Option("4.A.2", "convoy_paradox", "convoy disruption paradoxes", MappingProxyType({
        "szykman": "the convoys of a paradox fail (the army stays and cuts no support)",
        "all_hold": "every move and convoy of a paradox fails",
        "1971": "a convoyed army does not cut the support of a fleet supporting a fleet attacking "
                "a convoying fleet (1971 XII.5); Szykman for what that leaves open",
        "1982": "a convoyed army does not cut the support of a fleet supporting an action in a "
                "body of water holding a convoying fleet (1982 XIII.5)",
        "2000": "a convoyed army does not cut the support of a unit supporting an attack on a "
                "fleet necessary for its convoy (2000 rulebook); Szykman for what that leaves "
                "open",
    })),
    Option("4.A.3", "adjacent_convoy", "convoying to an adjacent province", MappingProxyType({
        "opposite_move": "the convoy route is taken only when the unit at the destination moves "
                         "the other way and the convoy is not disrupted (1971)",
        "intent_with_fallback": "the convoy route is taken with 'via convoy' or a fleet of the "
                                "army's power convoying it; if disrupted, the land route (DATC v2)",
        "intent": "the convoy route is taken with 'via convoy' or a fleet of the army's power "
                  "legally ordered to convoy it; no fallback to the land route (1982, 2023)",
        "explicit": "the convoy route is taken only with 'via convoy' (DPTG)",
    })),
    Option("4.A.4", "convoyed_attack_on_supporter", "support cut on attack on itself via convoy",
           MappingProxyType({
               "not_cut": "the attack comes from the army's province: no cut (Calhamer)",
               "cut": "the attack comes from the sea: the support is cut",
           })),
    Option("4.A.5", "retreat_to_convoy_origin", "retreat when dislodged by convoy",
           MappingProxyType({
               "forbidden": "never retreat to the attacker's province",
               "allowed": "may retreat to the attacker's province if the attacker came by convoy "
                          "(2023)",
           })),
    Option("4.A.7", "dislodged_unit_bounce", "avoiding a head-to-head battle to bounce a unit",
           MappingProxyType({
               "never": "a dislodged unit never has effect on the province its attacker came "
                        "from (literal rulebook)",
               "head_to_head_only": "only a unit dislodged in a head-to-head battle has no "
                                    "effect there (DATC preference)",
           })),
    Option("4.B.2", "single_coast_move", "omitted coast when one coast is possible",
           MappingProxyType({
               "attempt": "the move goes to the only reachable coast",
               "fail": "the move is illegal",
           })),
    Option("4.B.3", "impossible_coast", "move order to an impossible coast", MappingProxyType({
        "illegal": "the order is illegal",
        "ignore_coast": "the coast is ignored and the possible coast is used",
    })),
    Option("4.B.4", "support_coast", "coast specification in support orders", MappingProxyType({
        "optional": "a support may omit the coast; a given coast must match",
        "required": "a support of a fleet to a split-coast province must name the coast",
    })),
    Option("4.B.5", "ordered_unit_coast", "wrong coast of the ordered unit", MappingProxyType({
        "ignored": "the coast of the ordered unit is ignored",
        "illegal": "the order is illegal",
    })),
    Option("4.B.6", "irrelevant_coast", "unknown or irrelevant coasts", MappingProxyType({
        "ignored": "a coast given to an army or a one-coast province is ignored",
        "illegal": "the order is illegal",
    })),
    Option("4.C.2", "unit_type_mismatch", "wrong unit designation", MappingProxyType({
        "ignored": "the order is valid; the unit type written is ignored",
        "illegal": "the order is illegal",
    })),
    Option("4.D.3", "duplicate_orders", "multiple orders to the same unit", MappingProxyType({
        "first": "the first legal order counts; the others are void",
        "last": "the last legal order counts; the others are void",
        "hold": "all are void and the unit holds",
    })),
    Option("4.D.4", "too_many_builds", "too many build orders", MappingProxyType({
        "first": "the first legal builds are carried out",
        "last": "the last legal builds are carried out",
        "none": "all builds are void",
    })),
    Option("4.D.6", "too_many_disbands", "too many disband orders", MappingProxyType({
        "first": "the first legal removals are carried out",
        "last": "the last legal removals are carried out",
        "civil_disorder": "all removals are void and the civil-disorder rule chooses",
    })),
    Option("4.D.7", "waive", "waiving builds", MappingProxyType({
        "allowed": "a power may waive a build",
        "forbidden": "waive orders are illegal",
    })),
    Option("4.D.8", "civil_disorder", "removing a unit in civil disorder", MappingProxyType({
        "home_centers": "farthest from the nearest home centre; armies may cross water (as by "
                        "convoy), fleets move as fleets; fleets before armies, then "
                        "alphabetical (1971 and 1982 rulebooks)",
        "owned_centers": "farthest from the nearest owned centre, any unit crossing land and "
                         "sea; fleets before armies, then alphabetical (2023 rulebook)",
    })),
)

_BY_ID: dict[str, Option] = {o.datc_id: o for o in OPTIONS}
_BY_FIELD: dict[str, Option] = {o.field: o for o in OPTIONS}


@dataclass(frozen=True, slots=True)
class Rules:
    """One answer to every DATC section 4 issue the adjudicator knows (see :data:`OPTIONS`)."""

    edition: str
    """The edition these rules were made from (single options may have been overridden)."""
    multi_route_convoy: str = "all_routes_disrupted"
    """4.A.1."""
    convoy_paradox: str = "szykman"
    """4.A.2."""
    adjacent_convoy: str = "intent"
    """4.A.3."""
    convoyed_attack_on_supporter: str = "not_cut"
    """4.A.4."""
    retreat_to_convoy_origin: str = "allowed"
    """4.A.5."""
    dislodged_unit_bounce: str = "head_to_head_only"
    """4.A.7."""
    single_coast_move: str = "attempt"
    """4.B.2."""
    impossible_coast: str = "illegal"
    """4.B.3."""
    support_coast: str = "optional"
    """4.B.4."""
    ordered_unit_coast: str = "ignored"
    """4.B.5."""
    irrelevant_coast: str = "ignored"
    """4.B.6."""
    unit_type_mismatch: str = "ignored"
    """4.C.2."""
    duplicate_orders: str = "first"
    """4.D.3."""
    too_many_builds: str = "first"
    """4.D.4."""
    too_many_disbands: str = "first"
    """4.D.6."""
    waive: str = "allowed"
    """4.D.7."""
    civil_disorder: str = "owned_centers"
    """4.D.8."""
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        # Rules values key caches (the legal orders of a position): hash once.
        values = tuple(getattr(self, o.field) for o in OPTIONS)
        object.__setattr__(self, "_hash", hash((self.edition, values)))

    def __hash__(self) -> int:
        return self._hash

    def option(self, datc_id: str) -> str:
        """The value of the option with this DATC id (``"4.A.1"``).

        :raises ValueError: no such option.
        """
        return str(getattr(self, _option(datc_id).field))

    def options(self) -> dict[str, str]:
        """Every option as DATC id -> value."""
        return {o.datc_id: str(getattr(self, o.field)) for o in OPTIONS}


_2023 = Rules("2023")
_1982 = replace(
    _2023,
    edition="1982",
    convoy_paradox="1982",
    retreat_to_convoy_origin="forbidden",
    dislodged_unit_bounce="never",
    civil_disorder="home_centers",
)
EDITIONS: Mapping[str, Rules] = MappingProxyType({
    "1971": replace(
        _1982,
        edition="1971",
        multi_route_convoy="any_route_disrupted",
        convoy_paradox="1971",
        adjacent_convoy="opposite_move",
    ),
    "1982": _1982,
    "2000": replace(
        _2023,
        edition="2000",
        convoy_paradox="2000",
        adjacent_convoy="intent_with_fallback",
        retreat_to_convoy_origin="forbidden",
        civil_disorder="home_centers",
    ),
    "2023": _2023,
    "dptg": replace(_2023, edition="dptg", adjacent_convoy="explicit"),
})
"""The named editions."""

_ALIASES = {"1992": "1982", "1976": "1982", "datc": "2023", "default": "2023"}


def _option(key: str) -> Option:
    option = _BY_ID.get(key) or _BY_FIELD.get(key)
    if option is None:
        known = ", ".join(f"{o.datc_id} ({o.title})" for o in OPTIONS)
        raise ValueError(f"unknown rule option {key!r}; the options are: {known}")
    return option


def rules_for(edition: str = "2023", options: Mapping[str, str] | None = None) -> Rules:
    """The rules of an edition, with single options overridden by DATC id or field name.

    >>> rules_for("1992").edition
    '1982'

    :raises ValueError: unknown edition, option or value (the message lists what is allowed).
    """
    name = _ALIASES.get(str(edition).strip().lower(), str(edition).strip().lower())
    base = EDITIONS.get(name)
    if base is None:
        known = ", ".join([*EDITIONS, *(f"{a} (= {t})" for a, t in _ALIASES.items())])
        raise ValueError(f"unknown rule edition {edition!r}; the editions are: {known}")
    if not options:
        return base
    changes: dict[str, Any] = {}
    for key, value in options.items():
        option = _option(key)
        if value not in option.values:
            allowed = ", ".join(option.values)
            raise ValueError(
                f"{option.datc_id} ({option.title}) cannot be {value!r}; write one of: {allowed}"
            )
        changes[option.field] = value
    return replace(base, **changes)


# Every Rules field but ``edition`` must be an option (checked once on import).
assert {f.name for f in fields(Rules)} - {"edition", "_hash"} == set(_BY_FIELD)
