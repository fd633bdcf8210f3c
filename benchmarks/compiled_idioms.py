"""What mypyc makes of the engine's idioms: the same kernels interpreted and compiled.

    python benchmarks/compiled_idioms.py          # about half a minute (a third compiling)

Compiles ``benchmarks/idioms/kernels.py`` with mypyc (``mypy`` is in the ``dev`` extra) into a
temporary folder, then times each kernel interpreted and compiled in the same process, on the
classical map's provinces. ``benchmarks/idioms/values.py`` stays interpreted, as the engine's
order and unit classes do today. It prints the time per element of each idiom on both builds
and what compiling gains: which shapes of data and code mypyc speeds up, and which it leaves as
they are (``docs/compat.md``, "The compiled path", quotes a run). Minimum of several repeats,
CPU time (``time.process_time``: steadier on a busy machine), garbage collector off; nothing
is asserted.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realpolitik.places import places_of  # noqa: E402
from realpolitik.variant import load_variant  # noqa: E402

_HERE = Path(__file__).resolve().parent / "idioms"


def compile_kernels(folder: Path) -> None:
    """Copy the kernels and values into ``folder`` and compile the kernels there with mypyc."""
    for name in ("kernels.py", "values.py"):
        shutil.copy(_HERE / name, folder / name)
    done = subprocess.run([sys.executable, "-m", "mypyc", "kernels.py"], cwd=folder,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"mypyc failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def load_both(folder: Path) -> tuple[ModuleType, ModuleType]:
    """The kernels interpreted (from the source) and compiled (the extension), sharing one
    interpreted ``values`` module."""
    sys.path.insert(0, str(folder))
    compiled = importlib.import_module("kernels")
    if not (compiled.__file__ or "").endswith((".so", ".pyd")):
        sys.exit(f"the compiled kernels were not imported ({compiled.__file__})")
    spec = importlib.util.spec_from_file_location("kernels_interpreted", folder / "kernels.py")
    assert spec is not None and spec.loader is not None
    interpreted = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = interpreted  # (dataclasses look the module up while it runs)
    spec.loader.exec_module(interpreted)
    return interpreted, compiled


def per_element_ns(run: Callable[[], object], elements: int, repeats: int) -> float:
    """The fastest of ``repeats`` timings of ``run``, in nanoseconds per element (the garbage
    collector off while timing, so that the kernels that make values are not charged for
    collections their allocations happen to trigger)."""
    number = max(1, 40_000 // elements)
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.process_time()
            for _ in range(number):
                run()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return 1e9 * best / (number * elements)


Case = tuple[str, str, Callable[[ModuleType], tuple[Any, ...]]]
"""What the kernel does, its name, and its arguments made from the kernels' module."""


def cases(values: ModuleType) -> tuple[int, list[Case]]:
    """The elements each kernel handles per call (the classical map's provinces: each kernel
    does its step once per province), and every idiom."""
    variant = load_variant("classical")
    places = places_of(variant)
    names = list(places.provinces)
    the_map = variant.map
    adjacent = {p: frozenset(the_map.army_neighbours(p)) | frozenset(
        n.partition("/")[0] for loc in (p, *the_map.provinces[p].coasts)
        for n in the_map.fleet_neighbours(loc)) for p in names}
    ids = {p: i for i, p in enumerate(names)}
    adjacent_ids = [tuple(sorted(ids[n] for n in adjacent[p])) for p in names]
    adjacent_masks = [sum(1 << n for n in near) for near in adjacent_ids]
    held = names[::3]  # a third of the provinces hold a unit
    occupied = set(held)
    occupied_list = [p in occupied for p in names]
    occupied_mask = sum(1 << ids[p] for p in held)
    kinds = [values.Kind.ARMY if i % 3 else values.Kind.FLEET for i in range(len(names))]
    interpreted_moves = [values.InterpretedMove(values.Kind.ARMY, p, p) for p in names]
    interpreted_copies = [values.InterpretedMove(values.Kind.ARMY, p, p) for p in names]
    slot = values.InterpretedSlot(lambda _owner: 42)
    by_name = {p: i for i, p in enumerate(names)}

    def owners(kernels: ModuleType) -> list[Any]:
        made = [kernels.Owner() for _ in names]
        for owner in made:  # filled: the common case is a value made already
            kernels.call_native_slot([owner])
            slot(owner)
        return made

    return len(names), [
        ("read two fields of an interpreted frozen dataclass", "read_interpreted",
         lambda k: (interpreted_moves,)),
        ("read two fields of a frozen dataclass of the module", "read_frozen",
         lambda k: (k.make_frozen_moves(names),)),
        ("read two fields of a plain class of the module", "read_native",
         lambda k: (k.make_native_moves(names),)),
        ("make an interpreted frozen dataclass (its __init__)", "make_interpreted",
         lambda k: (names,)),
        ("make one by object.__new__ and slot setters", "make_interpreted_by_slots",
         lambda k: (names,)),
        ("make a frozen dataclass of the module", "make_frozen", lambda k: (names,)),
        ("make a plain class of the module (own __init__)", "make_native", lambda k: (names,)),
        ("dict look-up by an equal interpreted frozen dataclass", "look_up_interpreted",
         lambda k: ({m: 1 for m in interpreted_moves}, interpreted_copies)),
        ("dict look-up by an equal frozen dataclass of the module", "look_up_frozen",
         lambda k: ({m: 1 for m in k.make_frozen_moves(names)}, k.make_frozen_moves(names))),
        ("dict look-up by an equal plain class (own __eq__, __hash__)", "look_up_native",
         lambda k: ({m: 1 for m in k.make_native_moves(names)}, k.make_native_moves(names))),
        ("unit type test: `kind is Kind.ARMY` (enum member)", "count_armies_enum",
         lambda k: (kinds,)),
        ("unit type test: the member read once before the loop", "count_armies_enum_hoisted",
         lambda k: (kinds,)),
        ("unit type test: `kind == ARMY` (small int)", "count_armies_int",
         lambda k: ([0 if kind is values.Kind.ARMY else 1 for kind in kinds],)),
        ("occupied neighbours: names, dict of frozensets, set (loop)",
         "occupied_neighbours_str", lambda k: (names, adjacent, occupied)),
        ("occupied neighbours: names, `len(adjacent & occupied)`", "occupied_neighbours_map",
         lambda k: (names, adjacent, occupied)),
        ("occupied neighbours: ints, tuples of ints, list of bools", "occupied_neighbours_int",
         lambda k: (list(range(len(names))), adjacent_ids, occupied_list)),
        ("occupied neighbours: ints, bit masks of 75 bits", "occupied_neighbours_mask",
         lambda k: (list(range(len(names))), adjacent_masks, occupied_mask)),
        ("cache slot call: an interpreted CacheSlot", "call_slot",
         lambda k: (slot, owners(k))),
        ("cache slot call: a slot class of the module", "call_native_slot",
         lambda k: (owners(k),)),
        ("dict values: sum(map(table.__getitem__, keys))", "values_by_map",
         lambda k: (by_name, names)),
        ("dict values: a for loop", "values_by_loop", lambda k: (by_name, names)),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=15,
                        help="timings per kernel (default 15)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="idioms-") as folder:
        compile_kernels(Path(folder))
        interpreted, compiled = load_both(Path(folder))
        values = importlib.import_module("values")
        print(f"idiom kernels, Python {platform.python_version()} on {platform.machine()}; "
              f"ns per element, fastest of {args.repeats}")
        print(f"{'idiom':62} {'interp.':>8} {'mypyc':>8} {'gain':>6}")
        elements, table = cases(values)
        for what, name, make_args in table:
            timings = []
            for module in (interpreted, compiled):
                kernel = getattr(module, name)
                kernel_args = make_args(module)
                timings.append(per_element_ns(lambda kernel=kernel, a=kernel_args: kernel(*a),
                                              elements, args.repeats))
            print(f"{what:62} {timings[0]:8.1f} {timings[1]:8.1f} "
                  f"{timings[0] / timings[1]:5.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
