"""Named hooks: the rules a variant's data cannot say, as methods the engine calls.

Every variant goes through one :class:`VariantHooks` object (``variant.hooks``), the classical
game included. The default methods play the rulebooks' game, reading what the variant declares in
its data (:class:`~realpolitik.variant_rules.VariantRules`: convoy spaces, neutral units, build
sites and limits, the retreat policy). A variant whose rule needs code names a subclass in its
folder (``[variant] hooks = "Name"``, the class ``Name`` in the folder's ``hooks.py``) and
overrides only what differs, as python-chess's variant boards override a board's methods.

Where each hook is called:

=========================  ==========================================================  =========
hook                       question                                                    called
=========================  ==========================================================  =========
policies                   the variant's named policies and their allowed values       load
order_kinds                the variant's own kinds of order (``realpolitik.kinds``)    load
read_data                  the variant's own data (``[hooks_data]``)                   load
convoy_spaces              which spaces' fleets may convoy                             map load
initial_state              the variant's state at the start                            start
public_state               what of that state players see (``show --json``, the API)   any time
inactive_units             units that only hold until brought into play (marked)      any time
rule_notes                 the rules acting now on a power's units, said in words      any time
order_veto                 an order a unit may not be given (with the reason)          orders
void_orders                orders void together (too many of a kind for one power)     movement
standing_orders            the orders of units nobody orders (neutrals' supports)      movement
defence_bonuses            extra strength needed to dislodge given units               movement
movement_modifiers         defence by attacker, dislodging conditions, fragile convoys movement
empty_convoys              whose armies may be convoyed through empty seas             orders
annihilated_when_dislodged is a dislodged unit removed at once (no retreat)            movement
may_disband                may this dislodged unit be disbanded rather than retreat    retreats
retreat_allowed            may this dislodged unit retreat to this place               retreats
unordered_retreat          where a dislodged unit given no order goes                  retreats
center_owners              who owns each supply centre after a Fall turn               Fall end
build_sites                where may a power build now                                 winter
why_not_build_site         why a centre is not a build site now (the variant's rule)   winter
adjustments                how many units each power builds or removes                 winter
unit_limit                 how many units of a type a power may have                   winter
void_adjustments           builds of a winter that the variant's limits void           winter
adjustment_notes           why a power's builds or removals differ from the difference winter
removal_first              a unit type a power must remove before any other            winter
remove_after_build         may a power remove a unit it builds in the same winter      winter
next_state                 the variant's own state after a phase                       each phase
phase_notes                events of a phase to say in words (a unit annihilated)      each phase
setup_events               a setup's events (the 1914 game's coin toss, Italy joining) each phase
victory                    has a player won                                            Fall end
=========================  ==========================================================  =========

Conditional borders and corners are data read by the adjudicator itself
(:mod:`realpolitik.adjudication.equations`), because their outcome depends on the other
decisions of the turn; support-only borders are part of the map (``adjacencies.csv``).

Hooks must be pure functions of their arguments (the adjudicator is a pure function): a
random choice uses the generator it is given, which the game seeds and records. One hooks
object serves every game of a loaded variant, so it is sealed once loaded (:func:`seal_hooks`):
a game's state goes in ``position.state``. A variant's folder's ``hooks.py`` is imported as a
real module (:func:`load_hooks`), and each hook its class overrides is guarded: a failure or
a value of the wrong kind is a :class:`~realpolitik.errors.HookError` naming the hook.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import inspect
import random
import re
import sys
import traceback
import types
import typing
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from realpolitik.calendar import PhaseType
from realpolitik.errors import HookError, RealpolitikError, VariantError
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.orders import Move
from realpolitik.ownership import owners_and_changes as owners_and_changes
from realpolitik.rule_notes import NO_NOTES, RuleNotes
from realpolitik.variant_rules import (
    NEUTRAL,
    BuildSites,
    RetreatObligation,
    UnorderedRetreats,
)

if TYPE_CHECKING:  # pragma: no cover - the hooks take the engine's values, made elsewhere
    from realpolitik.adjudication.outcomes import Resolution
    from realpolitik.calendar import Phase
    from realpolitik.geography import Map
    from realpolitik.kinds import OrderKind
    from realpolitik.orders import Build, Order
    from realpolitik.position import DislodgedUnit, Position, Unit
    from realpolitik.variant import Setup, Variant

_MOVEMENT = PhaseType.MOVEMENT
"""(read once: an enum member read through its class goes through the metaclass)"""

__all__ = [
    "DislodgeRequirement",
    "EmptyConvoys",
    "Fragility",
    "JsonValue",
    "MovementModifiers",
    "SetupEvents",
    "VariantHooks",
    "VariantState",
    "Victory",
    "annihilated_units",
    "load_hooks",
    "seal_hooks",
    "variant_package",
]

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
"""A value that goes into a game record as JSON."""

VariantState = Mapping[str, JsonValue]
"""What a variant carries from phase to phase (who holds "sea superiority", a counter...):
kept in the position, compared with it and saved in game records."""

NO_STATE: VariantState = MappingProxyType({})
_NO_BONUSES: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class SetupEvents:
    """What happened between two phases under a setup's own rules (:meth:`setup_events`)."""

    position: Position
    """The position to play next (with the powers that joined on the board)."""
    coin_toss_winner: int | None
    """The player (team index) who won the coin toss, once tossed."""
    joined: tuple[str, ...] = ()
    """Neutral powers that joined the coin toss winner in this step."""
    notes: tuple[str, ...] = ()
    """Sentences for the game's record ("coin toss: italy will join England, France, ...")."""


@dataclass(frozen=True, slots=True)
class DislodgeRequirement:
    """What it takes to dislodge one unit beyond strength (a fortress that only a fleet with
    four armies' support can take): the attacker's type, and how many of its supports must
    come from units of a type. ``reason`` is the sentence a failed attack gives."""

    attacker: UnitType | None
    """The type the attacking unit must be (None: any)."""
    supports: int
    """How many of the attack's supports (given, not cut) must come from ``support_type``."""
    support_type: UnitType | None
    """The type those supporting units must be (None: any)."""
    reason: str
    """E.g. "Rome's army can be dislodged only by a fleet supported by four armies"."""


class Fragility(StrEnum):
    """When a power's convoys fail because a convoying fleet is attacked (as a support is
    cut), whether or not the fleet is dislodged."""

    ALWAYS = "always"
    """Every convoy through one of its fleets."""
    SHARED = "shared"
    """A convoy through two fleets or more, or of an army of another power."""


@dataclass(frozen=True, slots=True)
class EmptyConvoys:
    """Convoys through empty seas (a variant's rule): the armies of ``power`` may be
    convoyed along a chain of convoy spaces whose first and last hold fleets ordered to convoy
    them (``power``'s own fleets when ``own_ends``), and whose other spaces hold such fleets or
    are among ``spaces``, empty when the turn begins. An empty space of the chain that a unit
    of another power is ordered to move into (with a path) carries nothing that turn."""

    power: str
    spaces: frozenset[str]
    """The empty seas that may carry its armies this turn."""
    own_ends: bool = True
    """True: the fleets at both ends must be ``power``'s; False: any fleet convoying."""
    rule: str = ""
    """The rule's name, for the sentences ("rule 4(a)(i)")."""


@dataclass(frozen=True, slots=True)
class MovementModifiers:
    """What a variant changes in the equations of one movement phase beyond the defence
    bonuses (:meth:`VariantHooks.movement_modifiers`). Empty mappings change nothing."""

    defence_against: Mapping[str, Mapping[str, int]] = field(
        default_factory=lambda: MappingProxyType({}))
    """Province -> attacking power -> what is added to the defence of the unit there against
    that power's attacks (may be negative; a strength never goes below 0)."""
    dislodge_requirements: Mapping[str, DislodgeRequirement] = field(
        default_factory=lambda: MappingProxyType({}))
    """Province -> what an attack must be to dislodge the unit there."""
    fragile_convoys: Mapping[str, Fragility] = field(
        default_factory=lambda: MappingProxyType({}))
    """Power -> when convoys through its fleets fail on a mere attack."""
    prevent_against: Mapping[str, Mapping[str, int]] = field(
        default_factory=lambda: MappingProxyType({}))
    """Province a unit moves from -> rival power -> what is added to that move's prevent
    strength against the rival's moves to the same place (so -1 lets an equal rival win)."""
    holding_blocks: bool = False
    """True if a unit that may block a corner or passage blocks it by holding there (with no
    other order), as if ordered to block it; by default only a block order blocks."""
    empty_convoys: EmptyConvoys | None = None
    """Whose armies may be convoyed through empty seas this turn (:meth:`VariantHooks
    .empty_convoys`); None: nobody's."""

    def __bool__(self) -> bool:
        return bool(self.defence_against or self.dislodge_requirements or self.fragile_convoys
                    or self.prevent_against or self.holding_blocks or self.empty_convoys)


NO_MODIFIERS = MovementModifiers()


@dataclass(frozen=True, slots=True)
class Victory:
    """A won game: the index of the winning player (team) and a sentence saying why."""

    team: int
    summary: str


class VariantHooks:
    """The default hooks: the rulebooks' game, with what the variant's data declares."""

    def __setattr__(self, name: str, value: object) -> None:
        if getattr(self, "_sealed", False):
            raise HookError(
                f"{type(self).__name__} tried to set {name!r} on its hooks object, which "
                "every game of the variant shares: keep a game's state in position.state "
                "(made by next_state), or set what read_data reads there", hook=name)
        object.__setattr__(self, name, value)

    # -- the variant's own data and policies -------------------------------------------------

    def policies(self) -> Mapping[str, tuple[str, ...]]:
        """The variant's named policies (readings of an ambiguous rule), each with its allowed
        values, the first being the default. A variant's ``[policies]`` table chooses among
        them, a game may choose again (``Game(policies=...)``) and its record keeps the
        choice; the hooks read ``position.variant.policies``. The rulebooks' game has none."""
        return {}

    def order_kinds(self) -> tuple[OrderKind, ...]:
        """The variant's own kinds of order (:class:`~realpolitik.kinds.OrderKind` objects,
        usually made in a module beside ``hooks.py``); none by default. Asked once, when the
        variant loads: the registry is ``variant.kinds``."""
        return ()

    def read_data(self, data: Mapping[str, Any], the_map: Map) -> None:
        """Read the variant's ``[hooks_data]`` table (what its own rules need: colonies,
        regions...), checking it against the map.

        :raises VariantError: the data is wrong (the default hooks read none).
        """
        if data:
            raise VariantError("[hooks_data] is read only by a variant's own hooks "
                               "([variant] hooks)", file="variant.toml")

    # -- the map -----------------------------------------------------------------------------

    def convoy_spaces(self, variant: Variant) -> frozenset[str]:
        """The spaces whose fleets may convoy armies: every sea, and the coastal spaces the
        variant lists in ``[rules] convoy_spaces`` (rivers, canals, lakes)."""
        seas = {p.id for p in variant.map.provinces.values() if p.terrain is Terrain.SEA}
        return frozenset(seas | variant.rules.convoy_spaces)

    # -- state the players see ---------------------------------------------------------------

    def initial_state(self, position: Position) -> VariantState:
        """The variant's state in the starting ``position`` (made without one)."""
        return position.state

    def public_state(self, position: Position) -> dict[str, JsonValue]:
        """Entries of the variant's state that ``show --json``, the API and the web page show
        beside the board (e.g. ``{"sea_superiority": {...}}``); none by default."""
        return {}

    def inactive_units(self, position: Position) -> frozenset[str]:
        """The provinces of the units that may only hold until something brings them into play
        (a variant's inactive units: until mobilised or attacked), which ``show`` and the map mark;
        none by default."""
        return frozenset()

    def regions(self, variant: Variant) -> Mapping[str, tuple[str, ...]]:
        """Named groups of the map's provinces (continents, seas) that a page offers to jump
        to, in the order shown; none by default (a board small enough to see whole)."""
        return {}

    def rule_notes(self, position: Position, power: str | None) -> RuleNotes:
        """The variant's rules acting now on ``power``'s units, in words for the player
        about to order them (:mod:`realpolitik.rule_notes`): notes with a heading, marks
        beside its units, a choice its orders make; for ``power`` None, what anyone watching
        the game reads (notes on the whole board, the map's legend). The API gives them in the
        game view and the web page shows them above the orders. None by default."""
        return NO_NOTES

    # -- orders ------------------------------------------------------------------------------

    def order_veto(self, position: Position, unit: Unit, order: Order) -> str | None:
        """Why ``unit`` may not be given ``order`` (a movement-phase order other than a hold,
        already legal by the map), or None if it may. The reason is shown to the player."""
        return None

    def void_orders(self, position: Position, orders: Sequence[Order]) -> dict[int, str]:
        """Of a movement phase's legal ``orders`` (one per unit, in the order given), those
        void because of the others (index -> the reason shown to the player): a rule that
        limits how many units of a power may do something. None by default."""
        return {}

    def standing_orders(self, position: Position) -> tuple[Order, ...]:
        """Orders of units nobody orders (neutral units that support each other), given with
        the phase's orders; none by default (neutral units hold)."""
        return ()

    # -- movement ----------------------------------------------------------------------------

    def defence_bonuses(self, position: Position) -> Mapping[str, int]:
        """Province -> the extra strength an attack needs to dislodge the unit there.

        By default, the ``defence_bonus`` of neutral units still on the board. Asked once per
        movement phase; an empty mapping costs nothing.
        """
        neutral = position.variant.rules.neutral_units
        if not neutral:
            return _NO_BONUSES
        bonuses: dict[str, int] = {}
        for declared in neutral:
            province = declared.location.split("/")[0]
            unit = position.units.get(province)
            if declared.defence_bonus and unit is not None and unit.power == NEUTRAL:
                bonuses[province] = declared.defence_bonus
        return bonuses

    def movement_modifiers(self, position: Position) -> MovementModifiers:
        """Defence that depends on the attacker, conditions on dislodging a unit, and convoys
        that fail on an attack, for the movement phase of ``position``. None by default."""
        return NO_MODIFIERS

    def empty_convoys(self, position: Position) -> EmptyConvoys | None:
        """Whose armies may be convoyed through empty seas in the movement phase of
        ``position``, and how (None: nobody's, as in the rulebooks). The order checks, the
        listing and :meth:`movement_modifiers` (which a variant using this returns with it)
        read it."""
        return None

    def annihilated_when_dislodged(self, position: Position, unit: Unit) -> bool:
        """True if ``unit``, dislodged, is removed at once instead of retreating: neutral
        units by default."""
        return unit.power == NEUTRAL

    # -- retreats ----------------------------------------------------------------------------

    def may_disband(self, position: Position, dislodged: DislodgedUnit,
                    options: Sequence[str]) -> bool:
        """True if the dislodged unit may be ordered to disband (``options``: where it can
        retreat). With ``retreats = "must_retreat"`` only a unit with nowhere to go may."""
        if position.variant.rules.retreats is RetreatObligation.MUST_RETREAT:
            return not options
        return True

    def retreat_allowed(self, position: Position, dislodged: DislodgedUnit,
                        location: str) -> bool | str:
        """True if the dislodged unit may retreat to ``location`` (open by the rulebooks'
        rules already); False, or the reason shown to the player (a string), if it may not.
        Every open place by default."""
        return True

    def unordered_retreat(self, position: Position, dislodged: DislodgedUnit,
                          options: Sequence[str], rng: random.Random) -> str | None:
        """Where a dislodged unit given no order retreats (None: it is disbanded).

        ``rng`` is seeded by the game, and the game records the draw with the phase.
        """
        if position.variant.rules.unordered_retreats is UnorderedRetreats.RANDOM and options:
            return rng.choice(sorted(options))
        return None

    # -- centres and adjustments -------------------------------------------------------------

    def center_owners(self, position: Position, units: Mapping[str, Unit],
                      supply_centers: Sequence[str]) -> dict[str, str]:
        """Who owns each supply centre when the Fall turn that began in ``position`` is over
        and ``units`` stand on the board: the power whose unit stands on it (rule XI; neutral
        units take nothing); a vacant centre keeps its owner."""
        return owners_and_changes(position.centers, units, supply_centers)[0]

    def build_sites(self, position: Position, power: str) -> tuple[str, ...]:
        """The supply centres where ``power`` may build when it owns them and they are empty
        (the engine checks both): its home centres and the ``build_sites`` of its
        ``[[powers]]`` entry, or every centre with ``builds = "any_owned_center"``."""
        variant = position.variant
        if variant.rules.builds is BuildSites.ANY_OWNED_CENTER:
            return variant.map.supply_centers()
        homes = variant.home_centers(power)
        extra = variant.rules.of_power(power).build_sites
        return homes + tuple(s for s in extra if s not in homes) if extra else homes

    def why_not_build_site(self, position: Position, power: str, province: str) -> str | None:
        """Why the supply centre ``province`` is not among ``power``'s :meth:`build_sites` now,
        when the variant's own rule is the cause (a special build centre whose country is not
        all owned), for the player; None: the generic reason (not a home centre)."""
        return None

    def unit_limit(self, position: Position, power: str, unit_type: UnitType) -> int | None:
        """How many units of ``unit_type`` ``power`` may have on the board (None: no limit),
        from ``max_fleets`` / ``max_armies`` in its ``[[powers]]`` entry."""
        limits = position.variant.rules.of_power(power)
        return limits.max_fleets if unit_type is UnitType.FLEET else limits.max_armies

    def void_adjustments(self, position: Position, power: str,
                         builds: Sequence[Build]) -> dict[int, str]:
        """The builds of ``power`` (legal one by one, in the order given) that its variant's
        limits on the whole winter void: index -> the reason. None by default."""
        return {}

    def remove_after_build(self, position: Position, power: str) -> bool:
        """True if ``power`` may remove, in the winter it builds, a unit it builds then (in
        the same orders: the removal follows the build). Not by default."""
        return False

    def removal_first(self, position: Position, power: str) -> UnitType | None:
        """A unit type ``power`` must remove before any unit of another type (None: any)."""
        return None

    def adjustments(self, position: Position, differences: dict[str, int]) -> dict[str, int]:
        """How many units each power builds (> 0) or removes (< 0) this winter, given each
        power's ``differences`` of centres and units (changed in place and returned): the
        difference (rule XI), with no more builds than ``[rules] max_builds``."""
        cap = position.variant.rules.max_builds
        if cap is not None:
            for power, difference in differences.items():
                if difference > cap:
                    differences[power] = cap
        return differences

    def adjustment_notes(self, position: Position, power: str, due: int) -> tuple[str, ...]:
        """Sentences that say why ``power``'s ``due`` builds (> 0) or removals (< 0), as
        :meth:`adjustments` settled them, differ from its centres minus its units (units that
        need no centre, a cap on builds), for the players; none by default."""
        return ()

    # -- the setup's events ---------------------------------------------------------------

    def setup_events(self, variant: Variant, setup: Setup, before: Position, after: Position,
                     rng: random.Random, coin_toss_winner: int | None) -> SetupEvents | None:
        """The setup's events as the game goes from ``before`` to ``after`` (None: none);
        ``variant`` is the game's, with its whole map (the board may have had a neutral
        power's territory closed).

        The rulebooks' two-player game (1971 XIV.2, 1992 XV.3): before the adjustments of the
        year before ``neutral_joins`` a coin is tossed (``rng``, the game's seeded generator);
        at ``neutral_joins`` the neutral powers' starting units and centres come on the board
        and the winner of the toss commands them.
        """
        if not setup.neutral or setup.neutral_joins is None:
            return None
        return _neutral_events(variant, setup, setup.neutral_joins, before, after, rng,
                               coin_toss_winner)

    # -- state and the end -------------------------------------------------------------------

    def next_state(self, before: Position, resolution: Resolution,
                   after: Position) -> VariantState:
        """The variant's state in ``after``, the position that follows ``before`` once
        ``resolution`` is applied. The rulebooks' game has none: it is carried unchanged."""
        return before.state

    def phase_skipped(self, position: Position) -> bool:
        """True to skip the phase ``position`` is at, which the game would play next (a rule
        that data cannot say: no Summer turn in the first year, say). Asked for each phase of
        the variant's year in turn (``variant.calendar``) until one is not skipped; never for
        a retreat phase with units to retreat. A retreat phase with nothing dislodged and an
        adjustment phase with nothing to adjust are skipped before it is asked. A skipped
        movement phase leaves every unit where it is; the centres still change hands at the
        end of its season when the calendar says they do. None is skipped by default."""
        return False

    def phase_notes(self, before: Position, resolution: Resolution,
                    after: Position) -> tuple[str, ...]:
        """What the phase from ``before`` to ``after`` did that no order's result says, in
        plain words for the phase's record and results: by default, each unit dislodged and
        removed at once (:meth:`annihilated_when_dislodged`), which would otherwise vanish
        from the board without a word."""
        annihilated = annihilated_units(before, resolution)
        if not annihilated:
            return ()
        return _annihilation_notes(before, annihilated)

    def victory(self, position: Position, teams: Sequence[Sequence[str]], target: int, *,
                count_units: bool = False, per_power: bool = False) -> Victory | None:
        """The player who has won, or None (asked at the end of a Fall turn; with
        ``count_units`` once the Winter's adjustments are made).

        By default the player whose powers hold ``target`` supply centres (or, with
        ``count_units``, units on the board: the 1971 two-player game); with ``per_power``
        one of its powers must hold them alone, as in the rulebooks' 3- and 4-player games
        where centres are "computed for each individual country" (1992 XV.3, 1971 XIV.2). The
        one with most wins if several reach it.
        """
        if count_units:
            held = Counter(u.power for u in position.units.values())
            most = max(held.values()) if held else 0
        else:  # (the centres counted once per position: the winter's adjustments count them)
            # (no ``default=``: a keyword of max is looked up by name on every call)
            counts = position.center_counts()
            most = max(counts.values()) if counts else 0
        if most * (max(map(len, teams)) if teams else 0) < target:
            return None  # (no team can have enough: asked every year, true nearly always)
        if not count_units:
            held = Counter(position.center_counts())
        return _victor(position, teams, target, held, count_units=count_units,
                       per_power=per_power)


def _victor(position: Position, teams: Sequence[Sequence[str]], target: int,
            held: Counter[str], *, count_units: bool, per_power: bool) -> Victory | None:
    """:meth:`VariantHooks.victory` once some team may have won (apart: the comprehensions'
    cells would otherwise be made at every check)."""
    what = "units on the board" if count_units else "supply centres"
    if per_power:
        best_power, best_team, best_score = "", -1, -1
        for index, team in enumerate(teams):
            for power in team:
                if held[power] >= target and held[power] > best_score:
                    best_power, best_team, best_score = power, index, held[power]
        if best_team < 0:
            return None
        name = position.variant.power_name(best_power)
        return Victory(best_team, f"{name} won with {best_score} {what}")
    scores = [sum(held[p] for p in team) for team in teams]
    leaders = [t for t, score in enumerate(scores) if score >= target]
    if not leaders:
        return None
    best = max(leaders, key=lambda t: scores[t])
    names = "/".join(map(position.variant.power_name, teams[best]))
    return Victory(best, f"{names} won with {scores[best]} {what}")


def annihilated_units(before: Position, resolution: Resolution) -> list[tuple[Unit, str]]:
    """The units of ``before`` that its movement phase dislodged and removed at once (they are
    neither on the board nor among the dislodged of ``resolution``), each with the move that
    dislodged it, as text (``A E22 - E21``); none after other phases."""
    if len(before.units) == len(resolution.units) + len(resolution.dislodged) \
            or before.phase.type is not _MOVEMENT:
        return []  # (every unit on the board or waiting to retreat, or no movement phase)
    return _annihilated(before, resolution)


def _annihilated(before: Position, resolution: Resolution) -> list[tuple[Unit, str]]:
    """:func:`annihilated_units` of a movement phase that lost units (apart, after the test
    that settles nearly every phase: the comprehension's cells are made only here)."""
    # (imported here: writing imports variant, which imports this module, and an import
    # statement costs thousands of instructions)
    from realpolitik.writing import write_order

    attacks: dict[str, str] = {}
    moved: set[str] = set()
    for result in resolution.results:
        order = result.order
        if isinstance(order, Move) and result.succeeded:
            moved.add(order.province)
            attacks[province_of(order.destination)] = write_order(order, before.variant)
    waiting = {d.unit for d in resolution.dislodged}
    return [(unit, attacks.get(unit.province, "an attack"))
            for unit in before.units.values()
            if unit.province not in moved and resolution.units.get(unit.province) != unit
            and unit not in waiting]


def _owned_unit(position: Position, unit: Unit) -> str:
    """A unit with its owner, as a note names it: ``A E21 (neutral)``, ``F S14 (England)``."""
    from realpolitik.writing import write_unit  # (writing imports variant, which imports this)

    owner = "neutral" if unit.power == NEUTRAL else position.variant.power_name(unit.power)
    return f"{write_unit(unit, position.variant)} ({owner})"


def load_hooks(folder: Path, class_name: str, *, line: int | None = None) -> VariantHooks:
    """The hooks object of a variant: an instance of ``class_name`` from ``folder/hooks.py``,
    or, written ``"package.module:Name"``, the class ``Name`` of an importable module (so that
    several variant folders, a test's among them, share one rules module).

    The folder's ``hooks.py`` is imported as a real module, ``hooks`` of a package made for the
    folder (:func:`variant_package`), so that its dataclasses, its relative imports of files
    beside it (``from .tables import REGIONS``) and pickling work. Every hook the class
    overrides is guarded: an exception inside it, or a value of the wrong kind returned,
    is a :class:`~realpolitik.errors.HookError` naming the hook and the line.

    :raises VariantError: no such file, module or class, the class is not a
        :class:`VariantHooks`, or ``hooks.py`` fails to import (with its line).
    """
    if ":" in class_name:
        module_name, _, attribute = class_name.partition(":")
        try:
            imported = importlib.import_module(module_name)
        except ImportError as exc:
            raise VariantError(f"[variant] hooks = {class_name!r}: no module {module_name!r} "
                               f"({exc})", file="variant.toml", line=line) from exc
        made = getattr(imported, attribute, None)
        where, defined = f"in {module_name}", vars(imported)
    else:
        path = folder / "hooks.py"
        if not path.is_file():
            raise VariantError(f"[variant] hooks = {class_name!r} needs a hooks.py beside it",
                               file="variant.toml", line=line)
        defined = vars(_import_hooks_module(folder))
        made, where = defined.get(class_name), "in hooks.py"
    if not (isinstance(made, type) and issubclass(made, VariantHooks)):
        classes = [name for name, value in defined.items() if isinstance(value, type)
                   and issubclass(value, VariantHooks) and value is not VariantHooks]
        close = difflib.get_close_matches(class_name.partition(":")[2] or class_name, classes,
                                          n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else \
            f" (it has {', '.join(classes)})" if classes else ""
        raise VariantError(f"there is no VariantHooks subclass called {class_name!r} "
                           f"{where}{hint}", file="variant.toml", line=line)
    try:
        hooks = made()
    except Exception as exc:
        raise _failure(exc, f"{made.__name__}()", made) from exc
    _guard(hooks)
    return hooks


_SHIPPED = Path(__file__).resolve().parent / "variants"
"""Where the variants shipped with realpolitik are."""


def variant_package(folder: Path) -> str:
    """The name under which a variant folder's Python files are imported: one package per
    folder (its resolved path's digest keeps two folders of one name apart). A variant
    shipped with realpolitik whose folder is a package (it has an ``__init__.py``) is
    imported under its own name, ``realpolitik.variants.<folder>``, so that its modules are
    the same whether a variant loads them or a program imports them."""
    resolved = folder.resolve()
    if resolved.parent == _SHIPPED and (resolved / "__init__.py").is_file():
        return f"realpolitik.variants.{resolved.name}"
    digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:12]
    safe = re.sub(r"\W", "_", resolved.name)
    return f"realpolitik_variant_{safe}_{digest}"


def _import_hooks_module(folder: Path) -> types.ModuleType:
    """``folder/hooks.py`` as the module ``<variant_package(folder)>.hooks``, registered in
    :data:`sys.modules` (what dataclasses and pickle look classes up in); imported again only
    when the file changed."""
    package_name = variant_package(folder)
    if package_name.startswith("realpolitik."):
        return importlib.import_module(f"{package_name}.hooks")
    path = folder.resolve() / "hooks.py"
    stamp = path.stat().st_mtime_ns
    module_name = f"{package_name}.hooks"
    known = sys.modules.get(module_name)
    if known is not None and getattr(known, "__realpolitik_stamp__", None) == stamp:
        return known
    package = sys.modules.get(package_name)
    if package is None:
        package = types.ModuleType(package_name, f"the Python files of {folder.resolve()}")
        vars(package)["__path__"] = [str(folder.resolve())]
        sys.modules[package_name] = package
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise VariantError("cannot be imported", file="hooks.py")
    module = importlib.util.module_from_spec(spec)
    vars(module)["__realpolitik_stamp__"] = stamp
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        del sys.modules[module_name]
        raise VariantError(f"not valid Python: {exc.msg}", file="hooks.py",
                           line=exc.lineno) from exc
    except Exception as exc:
        del sys.modules[module_name]
        file, failed_at = _where(exc, str(path))
        raise VariantError(f"failed on import: {type(exc).__name__}: {exc}", file=file,
                           line=failed_at) from exc
    return module


def _where(exc: BaseException, file: str) -> tuple[str, int | None]:
    """The name of ``file`` and the line in it where ``exc`` was raised (the innermost frame
    in that file); else the innermost frame's file and line."""
    found: tuple[str, int | None] | None = None
    last: tuple[str, int | None] = (Path(file).name, None)
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        here = frame.f_code.co_filename
        last = (Path(here).name, lineno)
        if Path(here) == Path(file):
            found = (Path(here).name, lineno)
    return found or last


def _failure(exc: BaseException, hook: str, cls: type) -> HookError:
    """The :class:`HookError` for an exception raised inside a hook."""
    file, line = _where(exc, inspect.getfile(cls))
    return HookError(f"the hook {hook} failed: {type(exc).__name__}: {exc}", hook=hook,
                     file=file, line=line)


def _hook_names() -> tuple[str, ...]:
    return tuple(name for name, value in vars(VariantHooks).items()
                 if not name.startswith("_") and callable(value))


def _return_types() -> dict[str, object]:
    """Hook name -> the type its default declares it returns (what a variant's must return)."""
    from realpolitik.adjudication.outcomes import Resolution
    from realpolitik.geography import Map
    from realpolitik.kinds import OrderKind
    from realpolitik.orders import Build, Order
    from realpolitik.position import DislodgedUnit, Position, Unit
    from realpolitik.variant import Setup, Variant

    names = {"Resolution": Resolution, "Map": Map, "Build": Build, "Order": Order,
             "OrderKind": OrderKind,
             "DislodgedUnit": DislodgedUnit, "Position": Position, "Unit": Unit,
             "Setup": Setup, "Variant": Variant}
    hints: dict[str, object] = {}
    for name in _hook_names():
        try:
            declared = typing.get_type_hints(getattr(VariantHooks, name), localns=names)
        except (NameError, TypeError):  # pragma: no cover - every default hook is annotated
            continue
        hints[name] = declared.get("return", Any)
    return hints


def _kinds(hint: object) -> tuple[type, ...] | None:
    """The classes a value of the type ``hint`` may be an instance of, for a shallow check
    (the container, not its items); None when any value will do."""
    if hint is Any:
        return None
    if hint is None or hint is type(None):
        return (type(None),)
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        kinds: list[type] = []
        for arm in typing.get_args(hint):
            arm_kinds = _kinds(arm)
            if arm_kinds is None:
                return None
            kinds.extend(arm_kinds)
        return tuple(kinds)
    if origin is not None:
        hint = origin
    if hint is float:
        return (int, float)
    return (hint,) if isinstance(hint, type) else None


def _guard(hooks: VariantHooks) -> None:
    """Wrap every hook ``hooks``' class overrides (see :func:`load_hooks`)."""
    cls = type(hooks)
    returns = _return_types()
    for name in _hook_names():
        if getattr(cls, name) is getattr(VariantHooks, name):
            continue
        declared = returns.get(name, Any)
        object.__setattr__(hooks, name, _guarded(getattr(hooks, name), f"{cls.__name__}.{name}",
                                                 declared, _kinds(declared), cls))


def _guarded(method: Callable[..., Any], hook: str, expected: object,
             kinds: tuple[type, ...] | None, cls: type) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            value = method(*args, **kwargs)
        except RealpolitikError:
            raise
        except Exception as exc:
            raise _failure(exc, hook, cls) from exc
        if kinds is not None and not isinstance(value, kinds):
            shown = getattr(expected, "__name__", None) or str(expected).replace(
                "typing.", "").replace("collections.abc.", "").replace("realpolitik.", "")
            raise HookError(f"the hook {hook} returned {type(value).__name__} "
                            f"{_short(value)}, not {shown}", hook=hook,
                            file=Path(inspect.getfile(cls)).name)
        return value

    call.__name__ = method.__name__
    call.__doc__ = method.__doc__
    return call


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def seal_hooks(hooks: VariantHooks) -> None:
    """Forbid setting attributes on ``hooks`` from now on: one hooks object serves every game
    of the variant, so a game's state must travel with the game (``position.state``, made by
    :meth:`VariantHooks.next_state`), never on the object (called once the variant is
    loaded)."""
    object.__setattr__(hooks, "_sealed", True)


def _neutral_events(variant: Variant, setup: Setup, neutral_joins: str, before: Position,
                    after: Position, rng: random.Random, coin_toss_winner: int | None,
                    ) -> SetupEvents | None:
    """:meth:`VariantHooks.setup_events` of a setup with neutral powers that join (apart: its
    closure's cells would otherwise be made on every phase of every game)."""
    # (imported here: position.py imports this module for the state's types)
    from realpolitik.position import Position

    calendar = variant.calendar
    joins = calendar.parse_phase(neutral_joins)
    toss_before = calendar.last_adjustments(joins.year - 1)

    def reached(when: Phase | None) -> bool:  # ``when`` is after ``before``, not ``after``
        return when is not None and calendar.is_before(before.phase, when) \
            and not calendar.is_before(after.phase, when)

    notes: list[str] = []
    if coin_toss_winner is None and reached(toss_before):
        coin_toss_winner = rng.randrange(len(setup.teams))
        team = ", ".join(map(variant.power_name, setup.teams[coin_toss_winner]))
        notes.append(f"coin toss: {', '.join(setup.neutral)} will join {team}")
    if coin_toss_winner is None or not reached(joins):
        return SetupEvents(after, coin_toss_winner, notes=tuple(notes)) if notes else None
    start = Position.initial(variant)
    neutral = set(setup.neutral)
    units = dict(after.units)
    for unit in start.units.values():
        if unit.power in neutral and unit.province not in units:
            units[unit.province] = unit
    centers = dict(after.centers)
    for center, owner in start.centers.items():
        if owner in neutral:
            centers[center] = owner
    notes.append(f"{', '.join(map(variant.power_name, setup.neutral))} joined the game")
    joined = Position(variant, after.phase, units, centers, after.dislodged, after.standoffs,
                      after.state)
    return SetupEvents(joined, coin_toss_winner, tuple(setup.neutral), tuple(notes))


def _annihilation_notes(before: Position, annihilated: list[tuple[Unit, str]],
                        ) -> tuple[str, ...]:
    """:meth:`VariantHooks.phase_notes` once some unit was annihilated (apart, as the
    generator's cell would otherwise be made every phase)."""
    return tuple(f"{_owned_unit(before, unit)}, dislodged by {attack}, is annihilated: "
                 + ("a unit of no power does not retreat" if unit.power == NEUTRAL
                    else "the variant's rules give it no retreat")
                 for unit, attack in annihilated)
