"""How adjudication and legal-order listing grow with the number of units.

    python benchmarks/scale.py            # about half a minute
    python benchmarks/scale.py --quick    # a few seconds

The classical map has 75 spaces; a game on it never has more than 34 units. To reach hundreds,
this builds a bigger map as data, in memory: ``copies`` copies of the classical map side by side
(province ``par`` of copy 3 is ``par_3``, "Paris 3"), copy ``k`` joined to copy ``k + 1`` by two
sea borders and two land borders (:data:`LINKS`: Barents Sea - North Atlantic, Eastern
Mediterranean - Mid-Atlantic, Moscow - Spain, Armenia - Portugal), so that the seas form one
body of water and armies can walk from one end to the other. With one copy the map is exactly
the classical one (renamed). The powers are the seven classical ones, each with its home centres
in every copy (``--powers per-copy`` gives each copy its own seven instead: 7 x copies powers).

For each size (25, 50, 100, 200 and 400 units; ``--sizes``) it uses a map of ``size / 25``
copies, so that the density stays that of a real game (25 units on 75 spaces; a game
on the classical map has 22 to 34), and makes ``400 / size`` random positions (a fixed seed;
every size then times the same number of units per round): the provinces to occupy drawn at
random among the passable ones, an army inland, a fleet at sea, either on a coast (a random
coast of a province with several), each unit of a random power. Every unit gets a uniformly
random legal order from :func:`realpolitik.listing.legal_orders`. Then it times, per position,
with ``time.perf_counter`` and the garbage collector off, median of several samples:

- listing the legal orders of every power (on a fresh copy of the position each time: the
  listing is kept in the position's memo), as ``Game.legal_orders`` does every phase;
- :func:`realpolitik.adjudication.adjudicate` of the orders, on the position they were listed
  for (as ``Game.process`` does after ``Game.legal_orders``: listed orders skip the re-check);
- the same with orders that were not listed for the position (each one checked), as for orders
  typed by people or made by a bot that does not list them.

The sizes take turns sample by sample, so that a slow spell of a shared machine falls on all
of them alike. It prints, per size, the time per position, per unit, the per-unit cost against
the smallest size and the spread of the samples ((slowest - fastest) / median), and the growth
exponent: the slope of log(time) against log(units), fitted by
least squares over the sizes (1.0 is linear). ``--profile`` adds, for the smallest and largest
size, the functions whose own time per unit grows most (cProfile). No timing is asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import math
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realpolitik.adjudication import adjudicate  # noqa: E402
from realpolitik.geography import Map, Province, Terrain, UnitType, province_of  # noqa: E402
from realpolitik.listing import legal_orders  # noqa: E402
from realpolitik.orders import Order  # noqa: E402
from realpolitik.position import Position, Unit  # noqa: E402
from realpolitik.rules import Rules, rules_for  # noqa: E402
from realpolitik.variant import Power, StartUnit, Variant, load_variant, normalize_name  # noqa: E402

UNITS_PER_COPY = 25
"""Units per copy of the classical map (75 spaces and Switzerland): the density of a real game."""

LINKS: tuple[tuple[str, str, bool, bool], ...] = (
    ("bar", "nao", False, True),
    ("eas", "mao", False, True),
    ("mos", "spa", True, False),
    ("arm", "por", True, False),
)
"""Borders from copy ``k`` (first) to copy ``k + 1`` (second): (a, b, armies, fleets)."""

SIZES = (25, 50, 100, 200, 400)

Maker = Callable[[int], Callable[[], None]]
"""``maker(n)`` prepares what ``n`` timed calls need, untimed, and returns the work of one call
(each call of the work does the next of the ``n``)."""


# -- the map --------------------------------------------------------------------------------

def _renamed(location: str, copy: int) -> str:
    """``stp/nc`` of copy 3 -> ``stp_3/nc``."""
    province = province_of(location)
    return f"{province}_{copy}{location[len(province):]}"


def copy_of(location: str) -> int:
    """The copy a location of a tiled map belongs to: ``stp_3/nc`` -> 3."""
    return int(province_of(location).rsplit("_", 1)[1])


def tiled_variant(copies: int, *, per_copy_powers: bool = False,
                  base: Variant | None = None) -> Variant:
    """``copies`` copies of the classical map (or ``base``) in a row, joined by :data:`LINKS`.

    Every copy keeps the base map's provinces, coasts and borders, renamed with the suffix
    ``_<copy>``. With ``per_copy_powers`` each copy has its own powers (``france_3``), else the
    base variant's powers have their home centres in every copy.
    """
    if copies < 1:
        raise ValueError("copies must be at least 1")
    base = base or load_variant("classical")
    base_map = base.map

    def power_id(power: str, copy: int) -> str:
        return f"{power}_{copy}" if per_copy_powers else power

    provinces: list[Province] = []
    borders: list[tuple[str, str, bool, bool]] = []
    coast_display: dict[str, str] = {}
    names: dict[str, str] = {}
    coast_names: dict[tuple[str, str], str] = {}
    for copy in range(copies):
        for province in base_map.provinces.values():
            pid = _renamed(province.id, copy)
            coasts = tuple(_renamed(c, copy) for c in province.coasts)
            provinces.append(Province(
                id=pid,
                name=f"{province.name} {copy}",
                terrain=province.terrain,
                is_supply_center=province.is_supply_center,
                home_of=None if province.home_of is None else power_id(province.home_of, copy),
                coasts=coasts,
                aliases=(),
            ))
            names[normalize_name(pid)] = pid
            names[normalize_name(f"{province.name} {copy}")] = pid
            for coast, renamed in zip(province.coasts, coasts, strict=True):
                # "St. Petersburg (North Coast)" -> "North Coast"
                display = base_map.name(coast)[len(province.name) + 2:-1]
                coast_display[renamed] = display
                code = renamed.split("/", 1)[1]
                coast_names[pid, normalize_name(code)] = renamed
                coast_names[pid, normalize_name(display)] = renamed
        for a, b, by_army, by_fleet in base_map.borders:
            borders.append((_renamed(a, copy), _renamed(b, copy), by_army, by_fleet))
        if copy + 1 < copies:
            for a, b, by_army, by_fleet in LINKS:
                borders.append((_renamed(a, copy), _renamed(b, copy + 1), by_army, by_fleet))

    powers: list[Power] = []
    power_names: dict[str, str] = {}
    for copy in range(copies if per_copy_powers else 1):
        for power in base.powers:
            made = Power(
                id=power_id(power.id, copy),
                name=f"{power.name} {copy}" if per_copy_powers else power.name,
                adjective=f"{power.adjective} {copy}" if per_copy_powers else power.adjective,
                colour=power.colour,
            )
            powers.append(made)
            for alias in (made.id, made.name, made.adjective):
                power_names[normalize_name(alias)] = made.id

    start_units = tuple(
        StartUnit(power_id(s.power, copy), s.type, _renamed(s.location, copy))
        for copy in range(copies) for s in base.start_units)
    start_centers = {_renamed(center, copy): power_id(owner, copy)
                     for copy in range(copies) for center, owner in base.start_centers.items()}
    the_map = Map(provinces, borders, coast_names=coast_display)
    centers = len(the_map.supply_centers())
    return Variant(
        id=f"{base.id}_x{copies}" + ("_per_copy" if per_copy_powers else ""),
        name=f"{base.name} x{copies}",
        map=the_map,
        powers=tuple(powers),
        start_phase=base.start_phase,
        start_units=start_units,
        start_centers=MappingProxyType(start_centers),
        solo_centers=centers // 2 + 1,
        description=f"{copies} copies of {base.name} side by side (benchmarks/scale.py)",
        rules=base.rules,
        names=MappingProxyType(names),
        power_names=MappingProxyType(power_names),
        coast_names=MappingProxyType(coast_names),
    )


# -- positions and orders -------------------------------------------------------------------

def _powers_by_copy(variant: Variant) -> dict[int, list[str]] | None:
    """Copy -> its powers when each copy has its own (``france_3``), else None."""
    if not all(p.rsplit("_", 1)[-1].isdigit() for p in variant.power_ids):
        return None
    by_copy: dict[int, list[str]] = {}
    for power in variant.power_ids:
        by_copy.setdefault(int(power.rsplit("_", 1)[1]), []).append(power)
    return by_copy


def random_position(variant: Variant, units: int, rng: random.Random) -> Position:
    """A movement-phase position with ``units`` units on random passable provinces.

    Inland: an army; sea: a fleet; coast: either (a fleet on a random coast where the province
    has several). Each unit belongs to a random power (with per-copy powers, one of its copy's).
    The centres are owned as at the start.
    """
    the_map = variant.map
    passable = [p for p in the_map.provinces.values() if p.terrain is not Terrain.IMPASSABLE]
    if units > len(passable):
        raise ValueError(f"{units} units do not fit on {len(passable)} passable spaces")
    by_copy = _powers_by_copy(variant)
    placed: list[Unit] = []
    for province in rng.sample(passable, units):
        if province.terrain is Terrain.SEA:
            unit_type = UnitType.FLEET
        elif province.terrain is Terrain.LAND:
            unit_type = UnitType.ARMY
        else:
            unit_type = rng.choice((UnitType.ARMY, UnitType.FLEET))
        location = province.id
        if unit_type is UnitType.FLEET and province.coasts:
            location = rng.choice(province.coasts)
        if by_copy is not None:
            power = rng.choice(by_copy[copy_of(province.id)])
        else:
            power = rng.choice(variant.power_ids)
        placed.append(Unit(power, unit_type, location))
    return Position.build(variant, variant.start_phase, placed, variant.start_centers)


def random_orders(position: Position, rules: Rules, rng: random.Random) -> list[Order]:
    """A uniformly random legal order for every unit (listed for ``position``)."""
    orders: list[Order] = []
    for power in position.variant.power_ids:
        for options in legal_orders(position, power, rules=rules).values():
            orders.append(rng.choice(options))
    return orders


# -- timing ---------------------------------------------------------------------------------

@dataclass
class Case:
    """The positions of one size, with their orders."""

    units: int
    copies: int
    positions: list[Position]
    orders: list[list[Order]]

    @property
    def order_count(self) -> int:
        return sum(len(o) for o in self.orders) // len(self.orders)


def make_case(units: int, *, per_copy_powers: bool, positions: int, rules: Rules,
              rng: random.Random, variants: dict[int, Variant]) -> Case:
    copies = max(1, math.ceil(units / UNITS_PER_COPY))
    variant = variants.get(copies)
    if variant is None:
        variant = variants[copies] = tiled_variant(copies, per_copy_powers=per_copy_powers)
    made = [random_position(variant, units, rng) for _ in range(positions)]
    return Case(units, copies, made, [random_orders(p, rules, rng) for p in made])


def _sample(work: Callable[[], None], number: int) -> float:
    """Seconds for ``number`` calls of ``work``, the collector off."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(number):
            work()
        return time.perf_counter() - start
    finally:
        gc.enable()


def _calibrate(make_work: Maker, min_sample: float) -> int:
    """The smallest power of two of calls whose sample lasts ``min_sample`` seconds."""
    number = 1
    while _sample(make_work(number), number) < min_sample and number < 1 << 16:
        number *= 2
    return number


def time_per_call(makers: Sequence[Maker], *, samples: int,
                  min_sample: float) -> list[tuple[float, float]]:
    """(median seconds per call, spread) of each work over ``samples`` samples of at least
    ``min_sample`` seconds; the spread is (slowest - fastest) / median of the samples.

    ``make_work(n)`` prepares what ``n`` calls need (fresh positions...) outside the timing and
    returns the work of one call after another. The works take turns sample by sample, so that
    a slow spell of a shared machine falls on every size alike.
    """
    numbers = [_calibrate(make, min_sample) for make in makers]
    times: list[list[float]] = [[] for _ in makers]
    for _ in range(samples):
        for make, number, out in zip(makers, numbers, times, strict=True):
            out.append(_sample(make(number), number) / number)
    measured = []
    for out in times:
        median = statistics.median(out)
        measured.append((median, (max(out) - min(out)) / median))
    return measured


def _each(calls: list[Callable[[], None]]) -> Callable[[], None]:
    """Work that makes the next of ``calls`` each time it is called."""
    it = iter(calls)
    return lambda: next(it)()


def legal_work(case: Case, rules: Rules) -> Maker:
    """Listing every power's legal orders for each position of the case, on fresh copies."""
    def make(number: int) -> Callable[[], None]:
        def one(copies: list[Position]) -> Callable[[], None]:
            def run() -> None:
                for fresh in copies:
                    for power in fresh.variant.power_ids:
                        legal_orders(fresh, power, rules=rules)
            return run
        return _each([one([p.replace() for p in case.positions]) for _ in range(number)])
    return make


def adjudication_work(case: Case, rules: Rules, *, listed: bool,
                      ) -> Maker:
    """Adjudicating each position's orders: on the position they were listed for, or (not
    ``listed``) on a fresh copy, where each order is checked."""
    pairs = list(zip(case.positions, case.orders, strict=True))

    def make(number: int) -> Callable[[], None]:
        if listed:
            def run() -> None:
                for position, orders in pairs:
                    adjudicate(position, orders, rules=rules)
            return run

        def one(copies: list[tuple[Position, list[Order]]]) -> Callable[[], None]:
            def run_fresh() -> None:
                for position, orders in copies:
                    adjudicate(position, orders, rules=rules)
            return run_fresh
        return _each([one([(p.replace(), o) for p, o in pairs]) for _ in range(number)])
    return make


def slope(units: Sequence[int], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) against log(units): the growth exponent."""
    xs = [math.log(u) for u in units]
    ys = [math.log(s) for s in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
            / sum((x - mx) ** 2 for x in xs))


@dataclass
class Row:
    units: int
    copies: int
    orders: int
    seconds: float
    """Per position."""
    spread: float
    """(slowest - fastest) / median of the samples."""


def print_table(title: str, rows: list[Row]) -> float:
    """Print one measure's table and return its growth exponent."""
    print(f"\n{title}")
    print("| units | map spaces | orders | ms | µs per unit | per unit vs smallest | spread |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    first = rows[0].seconds / rows[0].units
    for row in rows:
        per_unit = row.seconds / row.units
        print(f"| {row.units} | {75 * row.copies} | {row.orders} | {1000 * row.seconds:.2f} "
              f"| {1e6 * per_unit:.2f} | {per_unit / first:.2f} | {100 * row.spread:.0f}% |")
    exponent = slope([r.units for r in rows], [r.seconds for r in rows])
    print(f"growth exponent (slope of log time vs log units): {exponent:.3f}")
    return exponent


def profile_growth(cases: list[Case], rules: Rules, top: int) -> None:
    """cProfile the smallest and largest case; print the functions whose own time per unit
    grows most between them (among those with at least 1% of the largest case's time)."""
    measures: list[tuple[str, Callable[[Case], Maker]]] = [
        ("legal orders", lambda c: legal_work(c, rules)),
        ("adjudication", lambda c: adjudication_work(c, rules, listed=True)),
        ("adjudication, orders checked", lambda c: adjudication_work(c, rules, listed=False)),
    ]
    for name, work_of in measures:
        per_unit: list[dict[str, float]] = []
        for case in (cases[0], cases[-1]):
            rounds = max(1, 2000 // (case.units * len(case.positions)))
            work = work_of(case)(rounds)
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(rounds):
                work()
            profiler.disable()
            stats = pstats.Stats(profiler)
            units = case.units * len(case.positions) * rounds
            own: dict[str, float] = {}
            for (file, line, func), row in stats.stats.items():  # type: ignore[attr-defined]
                label = f"{Path(file).name}:{line}({func})"
                own[label] = own.get(label, 0.0) + row[2] / units
            per_unit.append(own)
        small, large = per_unit
        total = sum(large.values())
        print(f"\n{name}: own time per unit, {cases[0].units} -> {cases[-1].units} units "
              f"(cProfile; functions with >= 1% of the time at {cases[-1].units})")
        print("| function | µs/unit small | µs/unit large | ratio | share at large |")
        print("| --- | ---: | ---: | ---: | ---: |")
        grown = sorted(
            ((large[k] / small.get(k, float("nan")) if small.get(k) else float("inf"), k)
             for k in large if large[k] >= 0.01 * total),
            key=lambda item: -item[0] if not math.isnan(item[0]) else 0.0)
        for ratio, label in grown[:top]:
            print(f"| {label} | {1e6 * small.get(label, 0.0):.3f} | {1e6 * large[label]:.3f} "
                  f"| {ratio:.2f} | {100 * large[label] / total:.1f}% |")


def build() -> str:
    """Which realpolitik runs (from where): pure Python or compiled with mypyc."""
    from realpolitik.adjudication import movement

    where = Path(movement.__file__ or "").parent.parent
    compiled = (movement.__file__ or "").endswith((".so", ".pyd"))
    return f"{'compiled with mypyc' if compiled else 'pure Python'}, from {where}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES),
                        help="unit counts (default: 25 50 100 200 400)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="2023", help="rules edition (default 2023)")
    parser.add_argument("--powers", choices=("shared", "per-copy"), default="shared",
                        help="the seven powers in every copy, or seven per copy")
    parser.add_argument("--samples", type=int, default=7, help="timed samples per measure")
    parser.add_argument("--min-sample", type=float, default=0.1,
                        help="seconds each sample lasts at least")
    parser.add_argument("--quick", action="store_true",
                        help="a fast run: 3 samples of 10 ms")
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile the smallest and largest size")
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes))
    if len(sizes) < 2:
        parser.error("give at least two sizes")
    if args.quick:
        args.samples, args.min_sample = 3, 0.01
    rules = rules_for(args.rules)
    rng = random.Random(args.seed)
    variants: dict[int, Variant] = {}
    per_copy = args.powers == "per-copy"
    budget = sizes[-1]
    cases = [make_case(n, per_copy_powers=per_copy, positions=max(1, budget // n),
                       rules=rules, rng=rng, variants=variants) for n in sizes]
    for case in cases:  # warm up: the tables each variant builds on first use
        legal_work(case, rules)(1)()
        adjudication_work(case, rules, listed=True)(1)()
        adjudication_work(case, rules, listed=False)(1)()

    print(f"realpolitik scale benchmark: realpolitik {build()}; Python "
          f"{platform.python_version()}, rules "
          f"{args.rules}, seed {args.seed}, powers {args.powers}, {args.samples} samples of "
          f">= {1000 * args.min_sample:.0f} ms, median; times per position")
    print("positions per size: " + ", ".join(f"{c.units}: {len(c.positions)}" for c in cases))
    measures: list[tuple[str, Callable[[Case], Maker]]] = [
        ("legal orders (every power, fresh position)", lambda c: legal_work(c, rules)),
        ("adjudication (orders listed for the position)",
         lambda c: adjudication_work(c, rules, listed=True)),
        ("adjudication (orders not listed: each one checked)",
         lambda c: adjudication_work(c, rules, listed=False)),
    ]
    exponents = []
    for title, work_of in measures:
        measured = time_per_call([work_of(case) for case in cases], samples=args.samples,
                                 min_sample=args.min_sample)
        rows = [Row(case.units, case.copies, case.order_count,
                    seconds / len(case.positions), spread)
                for case, (seconds, spread) in zip(cases, measured, strict=True)]
        exponents.append((title, print_table(title, rows)))
    print("\ngrowth exponents: " + ", ".join(f"{t.split(' (')[0]}"
                                             f"{' (checked)' if 'checked' in t else ''} "
                                             f"{e:.3f}" for t, e in exponents))
    if args.profile:
        profile_growth(cases, rules, top=12)
    return 0


if __name__ == "__main__":
    sys.exit(main())
