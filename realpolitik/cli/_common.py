"""What every command shares: errors with exit codes, colours, the game file and JSON output."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from realpolitik.errors import RealpolitikError
from realpolitik.game import Game

JSON = dict[str, Any]

# Exit codes (docs/cli.md lists them).
EXIT_OK = 0
EXIT_PROBLEMS = 1
"""The command ran, but some orders could not be read or are illegal (``orders``), or some
cases disagree with their ``expect`` (``adjudicate --check``)."""
EXIT_USAGE = 2
"""Bad arguments or bad input: an unknown option, a phase that does not exist, a case that cannot
be read, a request the game refuses (the game is over, not a power of the game)."""
EXIT_FILE = 3
"""The game file (or another file named on the command line) is missing, damaged or cannot be
written."""
EXIT_INTERRUPTED = 130

RAW_KEY = "cli_submissions"
"""Where the game file keeps every block of orders exactly as it was typed."""


class CliError(Exception):
    """An error the user can fix: the message says what was wrong and how to fix it."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Style:
    """ANSI colours, on only when writing to a terminal and ``NO_COLOR`` is not set."""

    enabled: bool = False

    @classmethod
    def for_stream(cls, stream: TextIO) -> Style:
        if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
            return cls(False)
        isatty = getattr(stream, "isatty", None)
        return cls(bool(isatty and isatty()))

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def good(self, text: str) -> str:
        return self._wrap("32", text)

    def bad(self, text: str) -> str:
        return self._wrap("31", text)

    def warn(self, text: str) -> str:
        return self._wrap("33", text)


def print_json(data: object, stream: TextIO | None = None) -> None:
    """One JSON document, indented, to stdout."""
    out = stream or sys.stdout
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def power_name(game: Game, power: str) -> str:
    """The display name of a power id in any case (``england``, ``USA`` -> ``England``,
    ``United States``)."""
    return game.variant.power_name(power.lower())


# -- the game file ---------------------------------------------------------------------------------

def read_text(path: str, what: str = "file") -> str:
    """Read a text file named on the command line, or stdin for ``-``."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such {what}; check the name and the folder", EXIT_FILE) \
            from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a folder, not a {what}; name the file itself",
                       EXIT_FILE) from None
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: is not UTF-8 text (byte {exc.start}); save it as UTF-8 text",
                       EXIT_FILE) from None
    except OSError as exc:
        raise CliError(f"{path}: cannot be read ({exc.strerror}); check its permissions",
                       EXIT_FILE) from None


def load_game(path: str) -> tuple[Game, JSON]:
    """The game in a game file, and the file's JSON (for the parts the engine does not keep).

    :raises CliError: the file is missing, not JSON, or not a game record that replays.
    """
    from realpolitik.savefile import game_from_json
    from realpolitik.variant import search_folders

    if not Path(path).exists():
        raise CliError(
            f"{path}: no such game file; start a game with 'realpolitik new {path}' or check "
            "the name", EXIT_FILE)
    text = read_text(path, "game file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            f"{path}: the game file is damaged: not valid JSON at line {exc.lineno}, column "
            f"{exc.colno} ({exc.msg}); restore it from a copy, or start a new game with "
            f"'realpolitik new'", EXIT_FILE) from None
    if not isinstance(data, dict):
        raise CliError(f"{path}: the game file must hold a JSON object, not "
                       f"{type(data).__name__}; is this a realpolitik game file?", EXIT_FILE)
    try:
        game = game_from_json(data, search=search_folders(os.environ))
    except (RealpolitikError, ValueError) as exc:
        raise CliError(f"{path}: the game file cannot be loaded: {exc}; restore it from a copy",
                       EXIT_FILE) from None
    except (KeyError, TypeError, AttributeError) as exc:
        raise CliError(f"{path}: the game file is damaged (missing or wrong entry {exc}); "
                       "restore it from a copy", EXIT_FILE) from None
    return game, data


def save_game(path: str, game: Game, extra: JSON | None = None) -> None:
    """Write the game file atomically: a temporary file in the same folder, then a rename, so that
    a crash or Ctrl-C leaves either the old file or the new one, never half of one."""
    from realpolitik.savefile import game_to_json

    data = game_to_json(game)
    if extra:
        data.update(extra)
    write_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def write_atomic(path: str, content: str | bytes) -> None:
    """Write ``content`` to ``path`` via a temporary file and ``os.replace``."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise CliError(f"{path}: the folder {folder} does not exist; create it first", EXIT_FILE)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        data = content.encode("utf-8") if isinstance(content, str) else content
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(temp, target.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise CliError(f"{path}: cannot be written ({exc.strerror}); check the folder's "
                           "permissions and free space", EXIT_FILE) from None
        raise
