"""Count the bytecodes a benchmark runs inside ``functools.reduce``, per function and per line.

    .venv/bin/python benchmarks/bytecodes.py benchmarks/adjudication.py --in-game process
    .venv/bin/python benchmarks/bytecodes.py --lines 60 benchmarks/adjudication.py --stage board
    .venv/bin/python benchmarks/bytecodes.py benchmarks/listing_instructions.py --games 3

The measuring benchmarks (``adjudication.py``, ``listing_instructions.py``, ``facade_cost.py``)
run the part they measure inside :func:`functools.reduce`, so that callgrind can count its
machine instructions alone. This runs such a script with ``functools.reduce`` replaced by one
that traces every bytecode executed inside it (``sys.settrace`` with opcode events) and prints
the bytecodes per ``reduce`` call: the top functions (their own lines) and the top lines.

It is a line profiler whose counts the machine's load does not move, and that sees Python
functions, which callgrind does not. A bytecode is not a fixed cost (a dictionary insertion or a
call into C costs far more than a local read: 40 to 80 machine instructions on average in the
engine's phases), so confirm a change with callgrind's counts; this tells where to look. Tracing
slows the run some fifty times.
"""

from __future__ import annotations

import argparse
import collections
import functools
import runpy
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

_Line = tuple[str, str, int]
"""A line: file name (without its folder), function name, line number."""


def _tracer(counts: collections.Counter[_Line]) -> Callable[[FrameType, str, Any], Any]:
    """A ``sys.settrace`` function that counts each opcode executed, by line."""

    def local(frame: FrameType, event: str, _arg: object) -> Any:
        if event == "opcode":
            code = frame.f_code
            counts[code.co_filename.rsplit("/", 1)[-1], code.co_name, frame.f_lineno] += 1
        return local

    def calling(frame: FrameType, _event: str, _arg: object) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return local

    return calling


def count(script: str, args: list[str]) -> tuple[int, collections.Counter[_Line]]:
    """Run ``script`` with ``args``, counting the bytecodes run inside ``functools.reduce``;
    returns the number of ``reduce`` calls and the counts by line."""
    counts: collections.Counter[_Line] = collections.Counter()
    calls = 0
    real_reduce = functools.reduce
    trace = _tracer(counts)

    def traced_reduce(function: Callable[..., Any], items: Any, *initial: Any) -> Any:
        nonlocal calls
        calls += 1
        sys.settrace(trace)
        try:
            return real_reduce(function, items, *initial)
        finally:
            sys.settrace(None)

    saved_argv = sys.argv
    functools.reduce = traced_reduce  # (the scripts import it after this, or call it by module)
    sys.argv = [script, *args]
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as stop:
        if stop.code not in (None, 0):
            raise
    finally:
        functools.reduce = real_reduce
        sys.argv = saved_argv
    return calls, counts


def report(calls: int, counts: collections.Counter[_Line], lines: int) -> str:
    """The counts per ``reduce`` call: the total, the top functions and the top lines."""
    per_call = max(calls, 1)
    total = sum(counts.values())
    by_function: collections.Counter[tuple[str, str]] = collections.Counter()
    for (file, function, _), n in counts.items():
        by_function[file, function] += n
    out = [f"{calls} reduce calls; {total} bytecodes, {total / per_call:.0f} a call",
           "-- functions (their own lines; bytecodes a call)"]
    out += [f"{n / per_call:9.1f}  {file}:{function}"
            for (file, function), n in by_function.most_common(30)]
    out.append("-- lines (bytecodes a call)")
    out += [f"{n / per_call:9.1f}  {file}:{line} ({function})"
            for (file, function, line), n in counts.most_common(lines)]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=40, help="top lines shown (default 40)")
    parser.add_argument("script", help="the benchmark script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    options = parser.parse_args(argv)
    calls, counts = count(options.script, options.args)
    print(report(calls, counts, options.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
