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
<MultiRouteConvoy.ANY_ROUTE_DISRUPTED: 'any_route_disrupted'>
>>> rules_for("2023", {"4.A.1": "any_route_disrupted"}).option("4.A.1")
'any_route_disrupted'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

__all__ = [
    "EDITIONS",
    "OPTIONS",
    "AdjacentConvoy",
    "CivilDisorder",
    "ConvoyParadox",
    "ConvoyedAttackOnSupporter",
    "DislodgedUnitBounce",
    "DuplicateOrders",
    "Edition",
    "ImpossibleCoast",
    "IrrelevantCoast",
    "MultiRouteConvoy",
    "Option",
    "OrderedUnitCoast",
    "RetreatToConvoyOrigin",
    "Rules",
    "SingleCoastMove",
    "SupportCoast",
    "TooManyBuilds",
    "TooManyDisbands",
    "UnitTypeMismatch",
    "WaiveBuilds",
    "rules_for",
]

# Every option is an enum, so that mypy checks each comparison against the values that exist;
# the members are strings (StrEnum), as written in rule files, case files and saved games.


class Edition(StrEnum):
    """The named editions (:data:`EDITIONS`)."""

    R1971 = "1971"
    R1982 = "1982"
    R2000 = "2000"
    R2023 = "2023"
    DPTG = "dptg"


class MultiRouteConvoy(StrEnum):
    """4.A.1 multi-route convoy disruption."""

    ANY_ROUTE_DISRUPTED = "any_route_disrupted"
    ALL_ROUTES_DISRUPTED = "all_routes_disrupted"


class ConvoyParadox(StrEnum):
    """4.A.2 convoy disruption paradoxes."""

    SZYKMAN = "szykman"
    ALL_HOLD = "all_hold"
    R1971 = "1971"
    R1982 = "1982"
    R2000 = "2000"


class AdjacentConvoy(StrEnum):
    """4.A.3 convoying to an adjacent province."""

    OPPOSITE_MOVE = "opposite_move"
    INTENT_WITH_FALLBACK = "intent_with_fallback"
    INTENT = "intent"
    EXPLICIT = "explicit"


class ConvoyedAttackOnSupporter(StrEnum):
    """4.A.4 support cut on attack on itself via convoy."""

    NOT_CUT = "not_cut"
    CUT = "cut"


class RetreatToConvoyOrigin(StrEnum):
    """4.A.5 retreat when dislodged by convoy."""

    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"


class DislodgedUnitBounce(StrEnum):
    """4.A.7 avoiding a head-to-head battle to bounce a unit."""

    NEVER = "never"
    HEAD_TO_HEAD_ONLY = "head_to_head_only"


class SingleCoastMove(StrEnum):
    """4.B.2 omitted coast when one coast is possible."""

    ATTEMPT = "attempt"
    FAIL = "fail"


class ImpossibleCoast(StrEnum):
    """4.B.3 move order to an impossible coast."""

    ILLEGAL = "illegal"
    IGNORE_COAST = "ignore_coast"


class SupportCoast(StrEnum):
    """4.B.4 coast specification in support orders."""

    OPTIONAL = "optional"
    REQUIRED = "required"


class OrderedUnitCoast(StrEnum):
    """4.B.5 wrong coast of the ordered unit."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class IrrelevantCoast(StrEnum):
    """4.B.6 unknown or irrelevant coasts."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class UnitTypeMismatch(StrEnum):
    """4.C.2 wrong unit designation."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class DuplicateOrders(StrEnum):
    """4.D.3 multiple orders to the same unit."""

    FIRST = "first"
    LAST = "last"
    HOLD = "hold"


class TooManyBuilds(StrEnum):
    """4.D.4 too many build orders."""

    FIRST = "first"
    LAST = "last"
    NONE = "none"


class TooManyDisbands(StrEnum):
    """4.D.6 too many disband orders."""

    FIRST = "first"
    LAST = "last"
    CIVIL_DISORDER = "civil_disorder"


class WaiveBuilds(StrEnum):
    """4.D.7 waiving builds."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class CivilDisorder(StrEnum):
    """4.D.8 removing a unit in civil disorder."""

    HOME_CENTERS = "home_centers"
    OWNED_CENTERS = "owned_centers"


@dataclass(frozen=True, slots=True)
class Option:
    """One DATC section 4 issue: its id, the :class:`Rules` field, its enum and the meanings."""

    datc_id: str
    field: str
    title: str
    kind: type[StrEnum]
    """The enum of the allowed values."""
    values: Mapping[str, str]
    """value -> one-line meaning (every member of ``kind``, in its order)."""


def _option(datc_id: str, name: str, title: str, kind: type[StrEnum],
            meanings: Mapping[StrEnum, str]) -> Option:
    # Each meaning is given per member; a member without one is a mistake caught on import.
    assert list(meanings) == list(kind), f"{datc_id}: a meaning per value of {kind.__name__}"
    return Option(datc_id, name, title, kind,
                  MappingProxyType({str(value): text for value, text in meanings.items()}))


OPTIONS: tuple[Option, ...] = (
    _option("4.A.1", "multi_route_convoy", "multi-route convoy disruption", MultiRouteConvoy, {
        MultiRouteConvoy.ANY_ROUTE_DISRUPTED:
            "a convoy fails when a fleet on any of its routes is dislodged (1971 XII.4)",
        MultiRouteConvoy.ALL_ROUTES_DISRUPTED:
            "a convoy fails only when every route is disrupted (1982 XIII.4 and later)",
    }),
    _option("4.A.2", "convoy_paradox", "convoy disruption paradoxes", ConvoyParadox, {
        ConvoyParadox.SZYKMAN:
            "the convoys of a paradox fail (the army stays and cuts no support)",
        ConvoyParadox.ALL_HOLD: "every move and convoy of a paradox fails",
        ConvoyParadox.R1971:
            "a convoyed army does not cut the support of a fleet supporting a fleet attacking "
            "a convoying fleet (1971 XII.5); Szykman for what that leaves open",
        ConvoyParadox.R1982:
            "a convoyed army does not cut the support of a fleet supporting an action in a "
            "body of water holding a convoying fleet (1982 XIII.5)",
        ConvoyParadox.R2000:
            "a convoyed army does not cut the support of a unit supporting an attack on a "
            "fleet necessary for its convoy (2000 rulebook); Szykman for what that leaves open",
    }),
    _option("4.A.3", "adjacent_convoy", "convoying to an adjacent province", AdjacentConvoy, {
        AdjacentConvoy.OPPOSITE_MOVE:
            "the convoy route is taken only when the unit at the destination moves the other "
            "way and the convoy is not disrupted (1971)",
        AdjacentConvoy.INTENT_WITH_FALLBACK:
            "the convoy route is taken with 'via convoy' or a fleet of the army's power "
            "convoying it; if disrupted, the land route (DATC v2)",
        AdjacentConvoy.INTENT:
            "the convoy route is taken with 'via convoy' or a fleet of the army's power legally "
            "ordered to convoy it; no fallback to the land route (1982, 2023)",
        AdjacentConvoy.EXPLICIT: "the convoy route is taken only with 'via convoy' (DPTG)",
    }),
    _option("4.A.4", "convoyed_attack_on_supporter", "support cut on attack on itself via convoy",
            ConvoyedAttackOnSupporter, {
                ConvoyedAttackOnSupporter.NOT_CUT:
                    "the attack comes from the army's province: no cut (Calhamer)",
                ConvoyedAttackOnSupporter.CUT: "the attack comes from the sea: the support is cut",
            }),
    _option("4.A.5", "retreat_to_convoy_origin", "retreat when dislodged by convoy",
            RetreatToConvoyOrigin, {
                RetreatToConvoyOrigin.FORBIDDEN: "never retreat to the attacker's province",
                RetreatToConvoyOrigin.ALLOWED:
                    "may retreat to the attacker's province if the attacker came by convoy "
                    "(2023)",
            }),
    _option("4.A.7", "dislodged_unit_bounce", "avoiding a head-to-head battle to bounce a unit",
            DislodgedUnitBounce, {
                DislodgedUnitBounce.NEVER:
                    "a dislodged unit never has effect on the province its attacker came from "
                    "(literal rulebook)",
                DislodgedUnitBounce.HEAD_TO_HEAD_ONLY:
                    "only a unit dislodged in a head-to-head battle has no effect there (DATC "
                    "preference)",
            }),
    _option("4.B.2", "single_coast_move", "omitted coast when one coast is possible",
            SingleCoastMove, {
                SingleCoastMove.ATTEMPT: "the move goes to the only reachable coast",
                SingleCoastMove.FAIL: "the move is illegal",
            }),
    _option("4.B.3", "impossible_coast", "move order to an impossible coast", ImpossibleCoast, {
        ImpossibleCoast.ILLEGAL: "the order is illegal",
        ImpossibleCoast.IGNORE_COAST: "the coast is ignored and the possible coast is used",
    }),
    _option("4.B.4", "support_coast", "coast specification in support orders", SupportCoast, {
        SupportCoast.OPTIONAL: "a support may omit the coast; a given coast must match",
        SupportCoast.REQUIRED: "a support of a fleet to a split-coast province must name the "
                               "coast",
    }),
    _option("4.B.5", "ordered_unit_coast", "wrong coast of the ordered unit", OrderedUnitCoast, {
        OrderedUnitCoast.IGNORED: "the coast of the ordered unit is ignored",
        OrderedUnitCoast.ILLEGAL: "the order is illegal",
    }),
    _option("4.B.6", "irrelevant_coast", "unknown or irrelevant coasts", IrrelevantCoast, {
        IrrelevantCoast.IGNORED: "a coast given to an army or a one-coast province is ignored",
        IrrelevantCoast.ILLEGAL: "the order is illegal",
    }),
    _option("4.C.2", "unit_type_mismatch", "wrong unit designation", UnitTypeMismatch, {
        UnitTypeMismatch.IGNORED: "the order is valid; the unit type written is ignored",
        UnitTypeMismatch.ILLEGAL: "the order is illegal",
    }),
    _option("4.D.3", "duplicate_orders", "multiple orders to the same unit", DuplicateOrders, {
        DuplicateOrders.FIRST: "the first legal order counts; the others are void",
        DuplicateOrders.LAST: "the last legal order counts; the others are void",
        DuplicateOrders.HOLD: "all are void and the unit holds",
    }),
    _option("4.D.4", "too_many_builds", "too many build orders", TooManyBuilds, {
        TooManyBuilds.FIRST: "the first legal builds are carried out",
        TooManyBuilds.LAST: "the last legal builds are carried out",
        TooManyBuilds.NONE: "all builds are void",
    }),
    _option("4.D.6", "too_many_disbands", "too many disband orders", TooManyDisbands, {
        TooManyDisbands.FIRST: "the first legal removals are carried out",
        TooManyDisbands.LAST: "the last legal removals are carried out",
        TooManyDisbands.CIVIL_DISORDER: "all removals are void and the civil-disorder rule "
                                        "chooses",
    }),
    _option("4.D.7", "waive", "waiving builds", WaiveBuilds, {
        WaiveBuilds.ALLOWED: "a power may waive a build",
        WaiveBuilds.FORBIDDEN: "waive orders are illegal",
    }),
    _option("4.D.8", "civil_disorder", "removing a unit in civil disorder", CivilDisorder, {
        CivilDisorder.HOME_CENTERS:
            "farthest from the nearest home centre; armies may cross water (as by convoy), "
            "fleets move as fleets; fleets before armies, then alphabetical (1971 and 1982 "
            "rulebooks)",
        CivilDisorder.OWNED_CENTERS:
            "farthest from the nearest owned centre, any unit crossing land and sea; fleets "
            "before armies, then alphabetical (2023 rulebook)",
    }),
)

_BY_ID: dict[str, Option] = {o.datc_id: o for o in OPTIONS}
_BY_FIELD: dict[str, Option] = {o.field: o for o in OPTIONS}


@dataclass(frozen=True, slots=True)
class Rules:
    """One answer to every DATC section 4 issue the adjudicator knows (see :data:`OPTIONS`)."""

    edition: Edition
    """The edition these rules were made from (single options may have been overridden)."""
    multi_route_convoy: MultiRouteConvoy = MultiRouteConvoy.ALL_ROUTES_DISRUPTED
    """4.A.1."""
    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN
    """4.A.2."""
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.INTENT
    """4.A.3."""
    convoyed_attack_on_supporter: ConvoyedAttackOnSupporter = ConvoyedAttackOnSupporter.NOT_CUT
    """4.A.4."""
    retreat_to_convoy_origin: RetreatToConvoyOrigin = RetreatToConvoyOrigin.ALLOWED
    """4.A.5."""
    dislodged_unit_bounce: DislodgedUnitBounce = DislodgedUnitBounce.HEAD_TO_HEAD_ONLY
    """4.A.7."""
    single_coast_move: SingleCoastMove = SingleCoastMove.ATTEMPT
    """4.B.2."""
    impossible_coast: ImpossibleCoast = ImpossibleCoast.ILLEGAL
    """4.B.3."""
    support_coast: SupportCoast = SupportCoast.OPTIONAL
    """4.B.4."""
    ordered_unit_coast: OrderedUnitCoast = OrderedUnitCoast.IGNORED
    """4.B.5."""
    irrelevant_coast: IrrelevantCoast = IrrelevantCoast.IGNORED
    """4.B.6."""
    unit_type_mismatch: UnitTypeMismatch = UnitTypeMismatch.IGNORED
    """4.C.2."""
    duplicate_orders: DuplicateOrders = DuplicateOrders.FIRST
    """4.D.3."""
    too_many_builds: TooManyBuilds = TooManyBuilds.FIRST
    """4.D.4."""
    too_many_disbands: TooManyDisbands = TooManyDisbands.FIRST
    """4.D.6."""
    waive: WaiveBuilds = WaiveBuilds.ALLOWED
    """4.D.7."""
    civil_disorder: CivilDisorder = CivilDisorder.OWNED_CENTERS
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
        return str(getattr(self, _find_option(datc_id).field))

    def options(self) -> dict[str, str]:
        """Every option as DATC id -> value."""
        return {o.datc_id: str(getattr(self, o.field)) for o in OPTIONS}


_2023 = Rules(Edition.R2023)
_1982 = replace(
    _2023,
    edition=Edition.R1982,
    convoy_paradox=ConvoyParadox.R1982,
    retreat_to_convoy_origin=RetreatToConvoyOrigin.FORBIDDEN,
    dislodged_unit_bounce=DislodgedUnitBounce.NEVER,
    civil_disorder=CivilDisorder.HOME_CENTERS,
)
EDITIONS: Mapping[str, Rules] = MappingProxyType({
    Edition.R1971: replace(
        _1982,
        edition=Edition.R1971,
        multi_route_convoy=MultiRouteConvoy.ANY_ROUTE_DISRUPTED,
        convoy_paradox=ConvoyParadox.R1971,
        adjacent_convoy=AdjacentConvoy.OPPOSITE_MOVE,
    ),
    Edition.R1982: _1982,
    Edition.R2000: replace(
        _2023,
        edition=Edition.R2000,
        convoy_paradox=ConvoyParadox.R2000,
        adjacent_convoy=AdjacentConvoy.INTENT_WITH_FALLBACK,
        retreat_to_convoy_origin=RetreatToConvoyOrigin.FORBIDDEN,
        civil_disorder=CivilDisorder.HOME_CENTERS,
    ),
    Edition.R2023: _2023,
    Edition.DPTG: replace(_2023, edition=Edition.DPTG, adjacent_convoy=AdjacentConvoy.EXPLICIT),
})
"""The named editions."""

_ALIASES = {"1992": "1982", "1976": "1982", "datc": "2023", "default": "2023"}


def _find_option(key: str) -> Option:
    option = _BY_ID.get(key) or _BY_FIELD.get(key)
    if option is None:
        known = ", ".join(f"{o.datc_id} ({o.title})" for o in OPTIONS)
        raise ValueError(f"unknown rule option {key!r}; the options are: {known}")
    return option


def rules_for(edition: str = "2023", options: Mapping[str, str] | None = None) -> Rules:
    """The rules of an edition, with single options overridden by DATC id or field name.

    >>> rules_for("1992").edition
    <Edition.R1982: '1982'>

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
        option = _find_option(key)
        if value not in option.values:
            allowed = ", ".join(option.values)
            raise ValueError(
                f"{option.datc_id} ({option.title}) cannot be {value!r}; write one of: {allowed}"
            )
        changes[option.field] = option.kind(value)
    return replace(base, **changes)


# Every Rules field but ``edition`` must be an option, its default a member of the option's
# enum (checked once on import).
assert {f.name for f in fields(Rules)} - {"edition", "_hash"} == set(_BY_FIELD)
assert all(isinstance(getattr(_2023, o.field), o.kind) for o in OPTIONS)
