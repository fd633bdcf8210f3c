"""Variants as data: loading and checking ``realpolitik/variants/<id>/``.

The file format is described in ``docs/variant-format.md``. Everything is checked on load and
every problem is a :class:`VariantError` naming the file and line.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import os
import re
import tomllib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from realpolitik.caches import Caches
from realpolitik.calendar import CLASSICAL_CALENDAR, Calendar, read_calendar
from realpolitik.compiling import Reduced, made_again
from realpolitik.errors import VariantError, VariantWarning
from realpolitik.geography import Map, Province, Terrain, UnitType, province_of
from realpolitik.hooks import VariantHooks, load_hooks, seal_hooks
from realpolitik.kinds import NO_KINDS, OrderKinds
from realpolitik.variant_rules import NEUTRAL, TomlLines, VariantRules, read_variant_rules

VARIANTS_DIR = Path(__file__).parent / "variants"

_ALIAS_DROP = re.compile(r"[.\u2019']")
_ALIAS_SPACE = re.compile(r"[\s_]+")


def normalize_name(text: str) -> str:
    """The form in which names are compared: lower case, no dots or apostrophes, single spaces."""
    return _ALIAS_SPACE.sub(" ", _ALIAS_DROP.sub("", text.lower())).strip()


@dataclass(frozen=True, slots=True)
class Power:
    """A Great Power of the variant."""

    id: str
    name: str
    adjective: str
    colour: str
    aliases: tuple[str, ...] = ()

    def __reduce__(self) -> Reduced:
        return made_again(self)  # (copied with a game; compiled by mypyc, see compiling.py)


@dataclass(frozen=True, slots=True)
class StartUnit:
    """A unit on the board at the start."""

    power: str
    type: UnitType
    location: str

    def __reduce__(self) -> Reduced:
        return made_again(self)  # (copied with a game; compiled by mypyc, see compiling.py)


@dataclass(frozen=True, slots=True)
class Setup:
    """A way to play the variant with a number of players (the rulebooks' 2-6 player games).

    ``teams`` lists the powers each player commands (one power each in the standard game);
    ``inactive`` powers have no player and are permanently in civil disorder; ``neutral`` powers
    are off the board until ``neutral_joins``, their ``neutral_territory`` impassable, and then
    join the player who wins a coin toss.
    """

    id: str
    players: int
    name: str
    teams: tuple[tuple[str, ...], ...]
    inactive: frozenset[str] = frozenset()
    start: str | None = None
    neutral: tuple[str, ...] = ()
    neutral_territory: tuple[str, ...] = ()
    neutral_joins: str | None = None
    solo_centers: int | None = None
    victory_by: str = "power"
    """``power``: one Great Power must control the centres (a player commanding several wins
    when one of them does, since ownership "is computed for each individual country", 1992
    XV.3 and 1971 XIV.2); ``player``: the powers a player commands count together (the 1914
    game's "24 units" / "24 centers", which one of three allied countries could hardly reach)."""

    def __reduce__(self) -> Reduced:
        return made_again(self)  # (copied with a game; compiled by mypyc, see compiling.py)


@dataclass(frozen=True, slots=True)
class Variant:
    """A map with its powers, starting position and variant-level rules; immutable."""

    id: str
    name: str
    map: Map
    powers: tuple[Power, ...]
    start_phase: str
    start_units: tuple[StartUnit, ...]
    start_centers: Mapping[str, str]
    """Supply-centre province -> owning power at the start."""
    solo_centers: int
    aliases: tuple[str, ...] = ()
    description: str = ""
    calendar: Calendar = CLASSICAL_CALENDAR
    """The variant's year: its seasons in order, their phases and where the centres change
    hands (``[[seasons]]`` in ``variant.toml``; the rulebooks' year by default)."""
    rules: VariantRules = field(default_factory=VariantRules)
    """What the variant declares about its rules (``[rules]`` and the tables of special
    rules in ``variant.toml``), typed and checked."""
    hooks: VariantHooks = field(default_factory=VariantHooks, compare=False)
    """The named hooks the engine calls where data cannot say a rule: the default ones, or the
    variant's own (``[variant] hooks``)."""
    policies: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Policy name -> the value chosen (every policy of the hooks, the default if the
    ``[policies]`` table or the game chose none): see :meth:`VariantHooks.policies`."""
    names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Normalised name or alias -> location id, for the parser."""
    shared_names: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    """Normalised alias -> the locations that share it (a map's key may call two spaces by
    one name): the parser answers such a name as ambiguous, with every candidate,
    unless the position leaves only one of them possible."""
    writes_names: bool = False
    """True if orders, positions and results write places by their names (``F London -
    English Channel``); False to write them by their codes in capitals (the classical map's
    ``F LON - ENG``). ``[variant] write_places`` in ``variant.toml``."""
    power_names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Normalised power name, adjective or alias -> power id."""
    coast_names: Mapping[tuple[str, str], str] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """(province, normalised coast code, name or alias) -> coast location id."""
    setups: tuple[Setup, ...] = ()
    """The ways to play with fewer players; the first is the standard game."""
    source: str = ""
    """What finds the variant again: its id for a variant shipped with realpolitik, else the
    path of its folder (a game record names it so that the game can be read back)."""
    coordinates: Mapping[str, tuple[float, float]] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False)
    """Province -> where a schematic map puts it (the optional ``x`` and ``y`` columns of
    ``provinces.csv``), for a variant without artwork."""
    folders: tuple[Path, ...] = field(default=(), compare=False, repr=False)
    digest: str = field(default="", compare=False, repr=False)
    """A hash of the files the variant was loaded from (its folder's and its ancestors':
    ``variant.toml``, the map files, Python files, artwork): a game record keeps it with the
    variant's id, so that the folder is found again wherever it now lives
    (:func:`load_variant` with ``search`` and ``digest``)."""
    """The variant's folder and those of the variants it extends (``[variant] extends``),
    nearest first: where its artwork and hooks are looked for (empty: made in memory)."""
    power_ids: tuple[str, ...] = field(init=False, compare=False, repr=False)
    """The power ids in display order (from ``powers``: asked for many times a phase)."""
    kinds: OrderKinds = field(init=False, compare=False, repr=False)
    """The variant's own kinds of order (its hooks' :meth:`~realpolitik.hooks.VariantHooks.
    order_kinds`): empty, and false, for a variant with only the rulebooks' orders."""
    caches: Caches = field(default_factory=Caches, init=False, compare=False, repr=False)
    """What other modules derive from this variant once (map tables, the parser's lexicon,
    order values...), each under its own :class:`~realpolitik.caches.CacheSlot` whose docstring
    states its bound: it lives exactly as long as the variant, and no global cache is needed.
    Not part of the value; a copy (``dataclasses.replace``) starts with empty caches."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "power_ids", tuple(p.id for p in self.powers))
        declared = self.hooks.order_kinds()
        object.__setattr__(self, "kinds", OrderKinds(declared) if declared else NO_KINDS)

    def __deepcopy__(self, memo: dict[int, object]) -> Variant:
        # Immutable: a deep copy of a game or position shares its variant (and the tables the
        # variant keeps in its caches).
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled by reference: what loads it again, the policies chosen and the provinces
        # closed (a neutral country), not its tables (a mappingproxy cannot be pickled).
        if not self.source:
            raise TypeError(f"variant {self.id!r} was made in memory, not loaded from a folder: "
                            "it cannot be pickled")
        closed = tuple(p.id for p in self.map.provinces.values()
                       if p.terrain is Terrain.IMPASSABLE)
        return (_unpickled_variant, (self.source, dict(self.policies), closed))

    def with_policies(self, chosen: Mapping[str, str]) -> Variant:
        """This variant with some policies chosen otherwise (a game's choice); itself when
        nothing changes.

        :raises VariantError: an unknown policy or value.
        """
        policies = dict(self.policies)
        for name, value in chosen.items():
            policies[name] = value
        checked = check_policies(self.hooks, policies, origin="the game's policies", file="")
        if checked == dict(self.policies):
            return self
        return replace(self, policies=MappingProxyType(checked))

    def power(self, power_id: str) -> Power:
        """The power with this id; raises KeyError."""
        for power in self.powers:
            if power.id == power_id:
                return power
        if power_id == NEUTRAL and self.rules.neutral_units:
            return _NEUTRAL_POWER
        raise KeyError(power_id)

    @property
    def map_title(self) -> str:
        """The variant's map as a sentence names it: ``the Classical map``; a name that says
        "map" already is not followed by a second one (``Old World (reconstructed map)`` ->
        ``the Old World map (reconstructed)``)."""
        name = self.name
        if name.endswith(" map)") and " (" in name:
            base, _, note = name[:-len(" map)")].rpartition(" (")
            return f"the {base} map ({note})"
        if name.lower().endswith(" map"):
            return f"the {name}"
        return f"the {name} map"

    def power_name(self, power_id: str) -> str:
        """The name players read for a power id (``usa`` -> ``United States``); an id that is
        no power of the variant is shown capitalised."""
        try:
            return self.power(power_id).name
        except KeyError:
            return power_id.title()

    def power_possessive(self, power_id: str) -> str:
        """The power's name in the possessive, in running text (``england`` -> ``England's``,
        ``usa`` -> ``the United States'``): see :func:`possessive`."""
        return possessive(self.power_name(power_id))

    def home_centers(self, power_id: str) -> tuple[str, ...]:
        """The home centres of a power: those ``provinces.csv`` gives it, then the ``homes`` of
        its ``[[powers]]`` entry."""
        homes = self.map.home_centers(power_id)
        extra = self.rules.of_power(power_id).homes
        return homes + tuple(h for h in extra if h not in homes) if extra else homes

    def is_owner(self, power_id: str) -> bool:
        """True if units may belong to ``power_id``: a power, or :data:`NEUTRAL` when the
        variant has neutral units."""
        return power_id in self.power_ids or (power_id == NEUTRAL
                                              and bool(self.rules.neutral_units))

    def setup(self, players: int | str | None = None) -> Setup:
        """The setup for a player count or setup id (``None``: every power has a player).

        :raises VariantError: no such setup.
        """
        if players is None:
            return self.setups[0] if self.setups else _standard_setup(self)
        wanted = str(players)
        for setup in self.setups:
            if setup.id == wanted:
                return setup
        for setup in self.setups:
            if str(setup.players) == wanted:
                return setup
        if wanted == str(len(self.powers)):
            return _standard_setup(self)
        if not self.setups:
            raise VariantError(f"{self.name} has only its {len(self.powers)}-player setup (every "
                               f"power has a player): there is no setup for {players} players")
        known = "; ".join(f"{s.id}: {s.name}" for s in self.setups)
        raise VariantError(f"{self.name} has no setup for {players} players; its setups are: "
                           f"{known}")

    def __repr__(self) -> str:
        return f"<Variant {self.id!r}>"


_NEUTRAL_POWER = Power(NEUTRAL, "Neutral", "neutral", "#bbbbbb")
"""What the owner of the units that belong to no power is called."""


def _standard_setup(variant: Variant) -> Setup:
    # named for what it is (a new user read "Standard" as one setup among others unnamed)
    return Setup(str(len(variant.powers)), len(variant.powers),
                 f"{len(variant.powers)} players, each playing one power",
                 tuple((p,) for p in variant.power_ids))


class _SetupProblem(Exception):
    """What is wrong with a ``[[setups]]`` entry, and the key at fault (for the line)."""

    def __init__(self, message: str, *, key: str) -> None:
        super().__init__(message)
        self.key = key


def _load_setups(entries: list[dict[str, Any]], power_ids: list[str],
                 provinces: Mapping[str, Province], calendar: Calendar, lines: TomlLines,
                 ) -> tuple[Setup, ...]:
    setups = []
    for index, entry in enumerate(entries, start=1):
        where = f"[[setups]] number {index}"
        try:
            setups.append(_load_setup(entry, where, power_ids, provinces, calendar))
        except _SetupProblem as exc:
            key = exc.key if exc.key in entry else None
            raise VariantError(str(exc), file="variant.toml",
                               line=lines.of("setups", key, index - 1)) from exc
    return tuple(setups)


def _load_setup(entry: dict[str, Any], where: str, power_ids: list[str],
                provinces: Mapping[str, Province], calendar: Calendar) -> Setup:
    try:
        players = int(entry["players"])
        setup_id = str(entry.get("id", players))
    except (KeyError, ValueError) as exc:
        raise _SetupProblem(f"{where} needs a whole number 'players'",
                           key="players") from exc
    inactive = [str(p) for p in entry.get("inactive", [])]
    neutral = [str(p) for p in entry.get("neutral", [])]
    if "teams" in entry:
        teams = tuple(tuple(str(p) for p in team) for team in entry["teams"])
    else:
        teams = tuple((p,) for p in power_ids if p not in inactive and p not in neutral)
    named = [p for team in teams for p in team] + inactive + neutral
    for power in named:
        if power not in power_ids:
            raise _SetupProblem(f"{where} names an unknown power {power!r}",
                               key="teams" if "teams" in entry else "inactive")
    if sorted(named) != sorted(power_ids):
        raise _SetupProblem(f"{where} must give every power exactly once (in teams, inactive "
                           "or neutral)", key="teams")
    if len(teams) != players:
        raise _SetupProblem(f"{where} has {len(teams)} teams for {players} players",
                           key="players")
    victory_by = str(entry.get("victory_by", "power"))
    if victory_by not in ("power", "player"):
        raise _SetupProblem(f"{where}: victory_by must be \"power\" or \"player\", not "
                           f"{victory_by!r}", key="victory_by")
    territory = tuple(str(p) for p in entry.get("neutral_territory", []))
    for province in territory:
        if province not in provinces:
            raise _SetupProblem(f"{where}: {province!r} is not a province",
                               key="neutral_territory")
    for key in ("start", "neutral_joins"):
        if key in entry:
            try:
                calendar.parse_phase(str(entry[key]))
            except ValueError as exc:
                raise _SetupProblem(f"{where}: {key}: {exc}", key=key) from None
    return Setup(
        id=setup_id,
        players=players,
        name=str(entry.get("name", f"{players} players")),
        teams=teams,
        inactive=frozenset(inactive),
        start=str(entry["start"]) if "start" in entry else None,
        neutral=tuple(neutral),
        neutral_territory=territory,
        neutral_joins=str(entry["neutral_joins"]) if "neutral_joins" in entry else None,
        solo_centers=int(entry["solo_centers"]) if "solo_centers" in entry else None,
        victory_by=victory_by,
    )


def available_variants(search: Sequence[Path] = ()) -> tuple[str, ...]:
    """The ids of the variants shipped with realpolitik, then those of the folders of
    ``search`` (:func:`search_folders`) that the shipped ones do not already name."""
    shipped = sorted(p.name for p in VARIANTS_DIR.iterdir() if (p / "variant.toml").is_file())
    more = sorted({variant_id for variant_id, _ in _searched(search)} - set(shipped))
    return (*shipped, *more)


VARIANTS_PATH_VARIABLE = "REALPOLITIK_VARIANTS_PATH"
"""The environment variable naming folders of variants (as PATH does: separated by ``:``,
``;`` on Windows) that the command line and the server offer besides the shipped ones."""


def search_folders(environ: Mapping[str, str]) -> tuple[Path, ...]:
    """The folders ``environ``'s ``REALPOLITIK_VARIANTS_PATH`` names: each a variant's folder
    or a folder of variants' folders."""
    text = environ.get(VARIANTS_PATH_VARIABLE, "")
    return tuple(Path(part) for part in text.split(os.pathsep) if part.strip())


def variant_folders(search: Sequence[Path]) -> list[Path]:
    """The variants' folders in the folders of ``search`` (each a variant's folder, one with a
    ``variant.toml``, or a folder of them), in the order they are searched."""
    folders: list[Path] = []
    for place in search:
        folders.extend([place] if (place / "variant.toml").is_file() else (
            sorted(p for p in place.iterdir() if (p / "variant.toml").is_file())
            if place.is_dir() else []))
    return folders


def _searched(search: Sequence[Path]) -> list[tuple[str, Path]]:
    """(id, folder) of every variant in the folders of ``search``; unreadable ones skipped
    (loading one by its folder reports what is wrong)."""
    found = []
    for folder in variant_folders(search):
        try:
            with (folder / "variant.toml").open("rb") as fh:
                variant_id = tomllib.load(fh).get("variant", {}).get("id")
        except (OSError, tomllib.TOMLDecodeError):
            continue
        if isinstance(variant_id, str):
            found.append((variant_id, folder))
    return found


def variant_id_clashes(search: Sequence[Path]) -> dict[str, str]:
    """Each variant id that more than one folder gives (the shipped variants' and those of
    ``search``), with a sentence naming the folders and the one a new game of that id uses
    (the shipped one, else the first searched); a game record still finds its own by the hash
    of its files."""
    folders: dict[str, list[Path]] = {}
    for variant_id, folder in _searched(search):
        folders.setdefault(variant_id, []).append(folder)
    clashes = {}
    for variant_id, found in folders.items():
        shipped = VARIANTS_DIR / variant_id
        if _is_shipped(variant_id):
            found = [shipped, *found]
        if len(found) < 2:
            continue
        used = f"the shipped one ({shipped})" if found[0] == shipped else str(found[0])
        clashes[variant_id] = (
            f"{len(found)} variants have the id {variant_id!r}: "
            f"{', '.join(str(f) for f in found)}; a new game of {variant_id!r} uses {used} "
            "(a game record finds its own by the hash of its files): give the others ids of "
            "their own")
    return clashes


def warn_of_id_clashes(search: Sequence[Path], variant_id: str | None = None) -> None:
    """Warn (:class:`~realpolitik.errors.VariantWarning`) of each variant id that more than
    one folder gives (:func:`variant_id_clashes`), or only of ``variant_id``'s."""
    for clashing, sentence in variant_id_clashes(search).items():
        if variant_id is None or clashing == variant_id:
            warnings.warn(VariantWarning(sentence), stacklevel=2)


def _digest(folders: Sequence[Path]) -> str:
    hashed = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.suffix in (".toml", ".csv", ".py", ".json"):
                hashed.update(path.name.encode("utf-8") + b"\0")
                hashed.update(path.read_bytes() + b"\0")
    return hashed.hexdigest()[:16]


def possessive(name: str) -> str:
    """A name in the possessive, in running text: ``England's``; a plural name (of more words
    than one, ending in s) takes the article and a bare apostrophe: ``the United States'``."""
    if " " in name and name.endswith("s"):
        return f"the {name}'"
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def load_variant(name_or_path: str | Path, *, search: Sequence[Path] = (),
                 digest: str | None = None) -> Variant:
    """Load and check a variant by id or alias (``"classical"``, ``"standard"``) or folder path;
    an id is looked for among the shipped variants, then in the folders of ``search``
    (:func:`search_folders`). With ``digest`` (a game record's), a variant of that id whose
    files hash to it is preferred to one whose files changed; without, an id that several
    folders give is warned of (:func:`warn_of_id_clashes`).

    :raises VariantError: the variant does not exist or its files are wrong.
    """
    path = Path(name_or_path)
    if not (path.is_dir() and (path / "variant.toml").is_file()) and search:
        wanted = str(name_or_path)
        if digest is None:
            warn_of_id_clashes(search, wanted)
        matches = [folder for variant_id, folder in _searched(search) if variant_id == wanted]
        if matches and not _is_shipped(wanted):
            loaded = [_load_folder(folder) for folder in matches]
            return next((v for v in loaded if v.digest == digest), loaded[0])
    folder = _find_variant_folder(name_or_path, search)
    return _load_folder(folder)


def _is_shipped(name: str) -> bool:
    return (VARIANTS_DIR / name / "variant.toml").is_file()


def _find_variant_folder(name_or_path: str | Path, search: Sequence[Path] = ()) -> Path:
    path = Path(name_or_path)
    if path.is_dir() and (path / "variant.toml").is_file():
        return path
    wanted = normalize_name(str(name_or_path))
    for folder in sorted(VARIANTS_DIR.iterdir()):
        toml_file = folder / "variant.toml"
        if not toml_file.is_file():
            continue
        if folder.name == wanted:
            return folder
        with toml_file.open("rb") as fh:
            data = tomllib.load(fh)
        aliases = [normalize_name(a) for a in data.get("variant", {}).get("aliases", [])]
        if wanted in aliases:
            return folder
    known = ", ".join(available_variants(search))
    raise VariantError(f"no variant called {str(name_or_path)!r}; the variants are: {known} "
                       f"(a variant of your own: give its folder, or name the folder that holds "
                       f"it in {VARIANTS_PATH_VARIABLE})")


def _read_csv(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    if not path.is_file():
        raise VariantError("file is missing", file=path.name)
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = tuple(reader.fieldnames or ())
        if header[: len(columns)] != columns:
            raise VariantError(
                f"the header must be {','.join(columns)} (found {','.join(header)})",
                file=path.name,
                line=1,
            )
        rows = []
        for row in reader:
            line = reader.line_num
            if not any((v or "").strip() for v in row.values()):
                continue
            rows.append((line, {k: (v or "").strip() for k, v in row.items() if k}))
        return rows


def _read_toml(folder: Path) -> tuple[dict[str, Any], str]:
    """The parsed ``variant.toml`` of ``folder`` and its text, its tables and ``[variant]``
    keys checked (a misspelt key is named with the key it was probably meant to be)."""
    text = (folder / "variant.toml").read_text(encoding="utf-8")
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"at line (\d+)", str(exc))
        raise VariantError(f"not valid TOML: {exc}", file="variant.toml",
                           line=int(at.group(1)) if at else None) from exc
    lines = TomlLines(text)
    for table in data:
        if table not in _TABLES:
            raise VariantError(f"unknown table [{table}]{_did_you_mean(table, _TABLES)}; the "
                               f"tables are: {', '.join(_TABLES)}",
                               file="variant.toml", line=lines.of(table))
    head = data.get("variant", {})
    for key in head:
        if key not in _VARIANT_KEYS:
            raise VariantError(f"[variant] has no key {key!r}{_did_you_mean(key, _VARIANT_KEYS)};"
                               f" the keys are: {', '.join(_VARIANT_KEYS)}", file="variant.toml",
                               line=lines.of("variant", key))
    return data, text


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass(frozen=True, slots=True)
class _Lineage:
    """What a variant takes from the variants it extends (``[variant] extends``)."""

    data: dict[str, Any]
    """Its ``variant.toml`` with every table it does not give taken from its parent."""
    map_folder: Path
    """The nearest folder of the line that has a ``provinces.csv``: the map's three files
    are taken together from it."""
    hooks_folder: Path
    """The folder whose ``hooks.py`` the ``[variant] hooks`` entry in force names."""
    folders: tuple[Path, ...]
    """The folder and the folders of its ancestors, nearest first."""


_NOT_INHERITED = ("id", "name", "aliases", "description", "extends")
"""``[variant]`` keys that belong to one variant only."""


def _lineage(folder: Path, data: dict[str, Any], text: str, below: tuple[Path, ...] = (),
             ) -> _Lineage:
    """Follow ``[variant] extends``: a child overrides whole tables (and ``[variant]`` keys)
    and copies nothing; the map files come together from the nearest folder that has them
    (``below``: the folders of the children already followed)."""
    folder = folder.resolve()
    head = data.get("variant", {})
    extends = head.get("extends")
    if extends is None:
        return _Lineage(data, folder, folder, (folder,))
    line = TomlLines(text).of("variant", "extends")
    if not isinstance(extends, str) or not extends:
        raise VariantError("[variant] extends must be a variant's id or folder",
                           file="variant.toml", line=line)
    relative = (folder / extends)
    parent_folder = relative if (relative / "variant.toml").is_file() else None
    if parent_folder is None:
        try:
            parent_folder = _find_variant_folder(extends)
        except VariantError as exc:
            raise VariantError(f"[variant] extends: {exc}", file="variant.toml",
                               line=line) from exc
    parent_folder = parent_folder.resolve()
    if parent_folder == folder:
        raise VariantError("[variant] extends names the variant itself", file="variant.toml",
                           line=line)
    if parent_folder in below:
        circle = " -> ".join(f.name for f in (*below, folder, parent_folder))
        raise VariantError(f"[variant] extends goes round in a circle: {circle}",
                           file="variant.toml", line=line)
    try:
        parent_data, parent_text = _read_toml(parent_folder)
        parent = _lineage(parent_folder, parent_data, parent_text, (*below, folder))
    except VariantError as exc:
        raise VariantError(f"[variant] extends {extends!r}: {parent_folder / exc.file}"
                           f"{f', line {exc.line}' if exc.line else ''}: {exc.detail}",
                           file="variant.toml", line=line) from exc
    merged = {table: value for table, value in parent.data.items() if table not in data}
    merged.update(data)
    own_head = dict(head)
    for key, value in parent.data.get("variant", {}).items():
        if key not in _NOT_INHERITED:
            own_head.setdefault(key, value)
    merged["variant"] = own_head
    has_map = (folder / "provinces.csv").is_file()
    own_hooks = "hooks" in head
    return _Lineage(merged,
                    folder if has_map else parent.map_folder,
                    folder if own_hooks else parent.hooks_folder,
                    (folder, *parent.folders))


def _load_folder(folder: Path) -> Variant:
    own_data, text = _read_toml(folder)
    lineage = _lineage(folder, own_data, text)
    data = lineage.data
    lines = TomlLines(text)
    head = data.get("variant", {})
    for key in ("id", "name", "start", "solo_centers"):
        if key not in head:
            raise VariantError(f"[variant] needs a {key!r} key", file="variant.toml",
                               line=lines.of("variant"))

    powers = []
    power_names: dict[str, str] = {}
    for index, entry in enumerate(data.get("powers", [])):
        for key in entry:
            if key not in _POWER_KEYS:
                raise VariantError(f"[[powers]] has no key {key!r}; the keys are: "
                                   f"{', '.join(_POWER_KEYS)}", file="variant.toml",
                                   line=lines.of("powers", key, index))
        try:
            power = Power(
                id=str(entry["id"]),
                name=str(entry["name"]),
                adjective=str(entry.get("adjective", entry["name"])),
                colour=str(entry.get("colour",
                                     DEFAULT_COLOURS[index % len(DEFAULT_COLOURS)])),
                aliases=tuple(str(a) for a in entry.get("aliases", ())),
            )
        except KeyError as exc:
            raise VariantError(f"a [[powers]] entry lacks {exc}", file="variant.toml",
                               line=lines.of("powers", None, index)) from exc
        powers.append(power)
        for alias in (power.id, power.name, power.adjective, *power.aliases):
            key = normalize_name(alias)
            if power_names.get(key, power.id) != power.id:
                raise VariantError(
                    f"the power name {alias!r} is used for {power_names[key]} and {power.id}",
                    file="variant.toml", line=lines.of("powers", None, index),
                )
            power_names[key] = power.id
    power_ids = {p.id for p in powers}
    # Each power's id as one string object wherever the variant names the power (its start
    # units and centres, which every later unit and centre owner is copied from): equal
    # strings that are not the same object are compared character by character at every
    # dictionary look-up keyed by power, in every phase of every game.
    same_id = {p.id: p.id for p in powers}
    if not powers:
        raise VariantError("no [[powers]] are listed", file="variant.toml")

    write_places = head.get("write_places", "codes")
    if write_places not in ("codes", "names"):
        raise VariantError(f"[variant] write_places must be \"codes\" or \"names\", not "
                           f"{write_places!r}", file="variant.toml",
                           line=lines.of("variant", "write_places"))
    provinces, names, shared, coast_names, coast_aliases = _load_provinces(
        lineage.map_folder, power_ids)
    borders, support_borders = _load_borders(lineage.map_folder, provinces)
    the_map = Map(provinces.values(), borders, coast_names=coast_names,
                  support_borders=support_borders)
    _check_connected(the_map)

    calendar = _read_year(data, own_data, lines, lineage.folders)
    try:
        calendar.parse_phase(str(head["start"]))
    except ValueError as exc:
        raise VariantError(f"[variant] start: {exc}", file="variant.toml",
                           line=lines.of("variant", "start")) from None
    start_units = _load_start_units(data.get("start", {}), the_map, same_id, lines)
    start_centers: dict[str, str] = {}
    given_centers = data.get("start_centers")
    if given_centers is None:
        for province in provinces.values():
            if province.home_of is not None and province.is_supply_center:
                start_centers[province.id] = same_id.get(province.home_of, province.home_of)
    else:
        for power_id, centers in given_centers.items():
            if power_id not in power_ids:
                raise VariantError(f"[start_centers] names an unknown power {power_id!r}",
                                   file="variant.toml", line=lines.of("start_centers", power_id))
            for center in centers:
                if center not in provinces or not provinces[center].is_supply_center:
                    raise VariantError(
                        f"[start_centers] {power_id}: {center!r} is not a supply centre",
                        file="variant.toml", line=lines.of("start_centers", power_id),
                    )
                start_centers[provinces[center].id] = same_id[power_id]

    rules = read_variant_rules(data, text, the_map, frozenset(power_ids))
    taken = {province_of(u.location) for u in start_units}
    for unit in rules.neutral_units:
        if province_of(unit.location) in taken:
            raise VariantError(f"[[neutral_units]] {unit.location!r} already holds a unit",
                               file="variant.toml", line=lines.of("neutral_units", "unit"))
        taken.add(province_of(unit.location))
    hooks_name = head.get("hooks")
    hooks = VariantHooks() if hooks_name is None else load_hooks(
        lineage.hooks_folder, str(hooks_name), line=lines.of("variant", "hooks"))
    hooks_data = data.get("hooks_data", {})
    try:
        hooks.read_data(hooks_data, the_map)
    except VariantError as exc:
        if exc.line is None and hooks_data:
            raise VariantError(exc.detail, file="variant.toml",
                               line=lines.of("hooks_data")) from exc
        raise
    seal_hooks(hooks)
    given_policies = data.get("policies", {})
    if not isinstance(given_policies, dict):
        raise VariantError("[policies] must be a table", file="variant.toml",
                           line=lines.of("policies"))
    try:
        policies = check_policies(hooks, given_policies, origin="[policies]")
    except VariantError as exc:
        bad = next((k for k in given_policies if repr(k) in exc.detail), None)
        raise VariantError(exc.detail, file="variant.toml",
                           line=lines.of("policies", bad)) from exc
    variant = Variant(
        id=str(head["id"]),
        name=str(head["name"]),
        map=the_map,
        powers=tuple(powers),
        start_phase=str(head["start"]).strip().upper(),
        calendar=calendar,
        start_units=start_units,
        start_centers=MappingProxyType(start_centers),
        solo_centers=int(head["solo_centers"]),
        aliases=tuple(str(a) for a in head.get("aliases", ())),
        description=str(head.get("description", "")),
        rules=rules,
        hooks=hooks,
        policies=MappingProxyType(policies),
        names=MappingProxyType(names),
        shared_names=MappingProxyType(shared),
        writes_names=write_places == "names",
        power_names=MappingProxyType(power_names),
        coast_names=MappingProxyType(coast_aliases),
        setups=_load_setups(data.get("setups", []), [p.id for p in powers], provinces,
                            calendar, lines),
        source=str(head["id"]) if folder.resolve().parent == VARIANTS_DIR.resolve()
        else str(folder.resolve()),
        coordinates=MappingProxyType(_load_coordinates(lineage.map_folder)),
        folders=tuple(f.resolve() for f in lineage.folders),
        digest=_digest(lineage.folders),
    )
    _warn_suspicious(variant, lineage.folders)
    return variant


def _read_year(data: dict[str, Any], own_data: dict[str, Any], lines: TomlLines,
               folders: Sequence[Path]) -> Calendar:
    """The variant's year (``[[seasons]]``); an error in a year inherited from an ancestor
    names the ancestor's file and line."""
    if "seasons" in own_data or "seasons" not in data:
        return read_calendar(data, lines)
    for folder in folders[1:]:
        text = (folder / "variant.toml").read_text(encoding="utf-8")
        if "seasons" in tomllib.loads(text):
            try:
                return read_calendar(data, TomlLines(text))
            except VariantError as exc:
                raise VariantError(exc.detail, file=str(folder / "variant.toml"),
                                   line=exc.line) from None
    return read_calendar(data, lines)  # (not reached: some ancestor gave the table)


def _warn_suspicious(variant: Variant, folders: Sequence[Path]) -> None:
    """Warn (:class:`~realpolitik.errors.VariantWarning`) about data that loads but is
    probably a mistake: a power with no home centre (it can never build), and more centres
    needed to win than the map has. Each warning names the file and line the value comes
    from, an ancestor's where the variant inherits it."""
    for index, power in enumerate(variant.powers):
        if not variant.home_centers(power.id):
            warnings.warn(VariantWarning(
                f"{_where_given(folders, 'powers', 'id', index)}: {power.name} has no home "
                "centre (no home_of in provinces.csv, no homes), so it can never build"),
                stacklevel=4)
    centres = len(variant.map.supply_centers())
    if variant.solo_centers > centres:
        warnings.warn(VariantWarning(
            f"{_where_given(folders, 'variant', 'solo_centers')}: solo_centers is "
            f"{variant.solo_centers} but the map has only {centres} supply centres, so nobody "
            "can win outright"), stacklevel=4)


def _where_given(folders: Sequence[Path], table: str, key: str, index: int = 0) -> str:
    """Where ``key`` of ``[table]`` (its ``index``-th ``[[table]]``) is written: the nearest of
    ``folders`` (the variant's, then its ancestors') whose ``variant.toml`` gives it, as
    "variant.toml, line N" for the variant's own file and the file's path for an ancestor's."""
    for folder in folders:
        text = (folder / "variant.toml").read_text(encoding="utf-8")
        entry = tomllib.loads(text).get(table)
        if isinstance(entry, list):
            entry = entry[index] if index < len(entry) else None
        if isinstance(entry, dict) and key in entry:
            line = TomlLines(text).of(table, key, index)
            name = "variant.toml" if folder == folders[0] else str(folder / "variant.toml")
            return f"{name}{f', line {line}' if line else ''}"
    return "variant.toml"


def _load_coordinates(folder: Path) -> dict[str, tuple[float, float]]:
    """The optional ``x``, ``y`` columns of ``provinces.csv`` (both or neither on a line)."""
    points: dict[str, tuple[float, float]] = {}
    rows = _read_csv(folder / "provinces.csv", ("id",))
    for line, row in rows:
        x, y = row.get("x", ""), row.get("y", "")
        if not x and not y:
            continue
        try:
            points[row["id"]] = (float(x), float(y))
        except ValueError:
            raise VariantError(f"x and y must be numbers (found {x!r}, {y!r})",
                               file="provinces.csv", line=line) from None
    return points


def _unpickled_variant(source: str, policies: dict[str, str], closed: tuple[str, ...],
                       ) -> Variant:
    """A variant read back by :mod:`pickle` (:meth:`Variant.__reduce__`): loaded again."""
    variant = load_variant(source).with_policies(policies)
    loaded_closed = {p.id for p in variant.map.provinces.values()
                     if p.terrain is Terrain.IMPASSABLE}
    if set(closed) != loaded_closed:
        variant = replace(variant, map=variant.map.with_impassable(set(closed) - loaded_closed))
    return variant


_TABLES = ("variant", "powers", "start", "start_centers", "rules", "setups", "seasons",
           "conditional_borders", "corners", "passages", "swap_borders", "neutral_units",
           "policies", "hooks_data")


def check_policies(hooks: VariantHooks, chosen: Mapping[str, object], *, origin: str,
                   file: str = "variant.toml") -> dict[str, str]:
    """Every policy of ``hooks`` with its value: ``chosen``'s, else the default.

    :raises VariantError: ``chosen`` names a policy the hooks do not have, or a value the
        policy does not allow (``origin`` says where it was written; ``file`` is the file it
        names, none for a game's choice).
    """
    known = hooks.policies()
    for name, value in chosen.items():
        allowed = known.get(name)
        if allowed is None:
            which = f"this variant's policies are: {', '.join(known)}" if known else \
                "this variant has no policies to choose"
            raise VariantError(f"{origin}: there is no policy {name!r}; {which}", file=file)
        if value not in allowed:
            raise VariantError(f"{origin}: the policy {name!r} cannot be {value!r}; write one of: "
                               f"{', '.join(allowed)}", file=file)
    return {name: str(chosen.get(name, allowed[0])) for name, allowed in known.items()}
_VARIANT_KEYS = ("id", "name", "aliases", "start", "solo_centers", "description", "hooks",
                 "write_places", "extends")
DEFAULT_COLOURS = ("#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#edc948",
                   "#9c755f", "#ff9da7", "#76b7b2", "#bab0ac")
"""The colour of a power whose ``[[powers]]`` entry gives none, by its place in the list (one
grey for all made the powers of a new variant's map look alike)."""

_POWER_KEYS = ("id", "name", "adjective", "colour", "aliases", "homes", "build_sites",
               "max_fleets", "max_armies")


def _load_provinces(
    folder: Path, power_ids: set[str]
) -> tuple[dict[str, Province], dict[str, str], dict[str, tuple[str, ...]], dict[str, str],
           dict[tuple[str, str], str]]:
    rows = _read_csv(
        folder / "provinces.csv", ("id", "name", "terrain", "supply_center", "home_of", "aliases")
    )
    coast_rows = []
    if (folder / "coasts.csv").is_file():
        coast_rows = _read_csv(folder / "coasts.csv", ("province", "coast", "name", "aliases"))
    coasts_of: dict[str, list[str]] = {}
    coast_lines: dict[str, int] = {}
    coast_names: dict[str, str] = {}
    coast_aliases: dict[str, list[str]] = {}
    raw: dict[str, tuple[int, dict[str, str]]] = {}
    for line, row in rows:
        pid = row["id"]
        if not re.fullmatch(r"[a-z0-9_]+", pid):
            raise VariantError(f"province id {pid!r} must be lower-case letters and digits",
                               file="provinces.csv", line=line)
        if pid in raw:
            raise VariantError(f"province {pid!r} is listed twice", file="provinces.csv",
                               line=line)
        raw[pid] = (line, row)
    for line, row in coast_rows:
        pid, coast = row["province"], row["coast"]
        if pid not in raw:
            raise VariantError(f"coast {coast!r} belongs to {pid!r}, which is not a province",
                               file="coasts.csv", line=line)
        loc = f"{pid}/{coast}"
        if loc in coasts_of.get(pid, []):
            raise VariantError(f"coast {loc!r} is listed twice", file="coasts.csv", line=line)
        coasts_of.setdefault(pid, []).append(loc)
        coast_lines[loc] = line
        coast_names[loc] = row["name"] or coast
        coast_aliases[loc] = [a for a in row["aliases"].split("|") if a.strip()]

    provinces: dict[str, Province] = {}
    names: dict[str, str] = {}
    own: set[str] = set()
    """The keys that are a place's id or name: no other place may have them."""
    shared: dict[str, list[str]] = {}

    def add_name(alias: str, target: str, line: int, *, is_own: bool) -> None:
        key = normalize_name(alias)
        if not key or names.get(key) == target or target in shared.get(key, ()):
            return
        other = names.get(key) or (shared[key][0] if key in shared else None)
        if other is not None and (is_own or key in own):
            raise VariantError(
                f"the name {alias!r} is used for both {other!r} and {target!r} (an alias "
                f"two places share is allowed, not a place's own id or name)",
                file="provinces.csv",
                line=line,
            )
        if other is None:
            names[key] = target
            if is_own:
                own.add(key)
            return
        # an alias of two places: the parser answers it as ambiguous
        shared.setdefault(key, [names.pop(key)] if key in names else []).append(target)

    for pid, (line, row) in raw.items():
        try:
            terrain = Terrain(row["terrain"])
        except ValueError:
            raise VariantError(
                f"terrain {row['terrain']!r} must be land, coast, sea or impassable",
                file="provinces.csv",
                line=line,
            ) from None
        sc = row["supply_center"].lower()
        if sc not in ("yes", "no"):
            raise VariantError("supply_center must be yes or no", file="provinces.csv", line=line)
        home = row["home_of"] or None
        if home is not None and home not in power_ids:
            raise VariantError(f"home_of names an unknown power {home!r}", file="provinces.csv",
                               line=line)
        if home is not None and sc != "yes":
            raise VariantError(f"{pid} is a home centre of {home} but not a supply centre",
                               file="provinces.csv", line=line)
        if sc == "yes" and terrain is Terrain.IMPASSABLE:
            raise VariantError(f"{pid} is impassable and cannot be a supply centre",
                               file="provinces.csv", line=line)
        coasts = tuple(coasts_of.get(pid, ()))
        if coasts and terrain is not Terrain.COAST:
            raise VariantError(f"{pid} has coasts in coasts.csv but its terrain is {terrain}",
                               file="provinces.csv", line=line)
        aliases = tuple(a.strip() for a in row["aliases"].split("|") if a.strip())
        provinces[pid] = Province(
            id=pid,
            name=row["name"] or pid,
            terrain=terrain,
            is_supply_center=sc == "yes",
            home_of=home,
            coasts=coasts,
            aliases=aliases,
        )
        for own_name in (pid, row["name"]):
            add_name(own_name, pid, line, is_own=True)
    for pid, province in provinces.items():
        for alias in province.aliases:
            add_name(alias, pid, raw[pid][0], is_own=False)
    # Coast names are looked up within their province ("north" is a coast of stp and of spa).
    scoped: dict[tuple[str, str], str] = {}
    for loc, coast_alias_list in coast_aliases.items():
        pid, code = loc.split("/", 1)
        for alias in (code, coast_names[loc], *coast_alias_list):
            key = (pid, normalize_name(alias))
            if scoped.get(key, loc) != loc:
                raise VariantError(f"the coast name {alias!r} is used twice in {pid}",
                                   file="coasts.csv", line=coast_lines[loc])
            scoped[key] = loc
    return provinces, names, {k: tuple(v) for k, v in shared.items()}, coast_names, scoped


_UNITS_COLUMN = {"army": (True, False), "fleet": (False, True), "both": (True, True)}


def _load_borders(
    folder: Path, provinces: Mapping[str, Province]
) -> tuple[list[tuple[str, str, bool, bool]], list[tuple[str, str]]]:
    """The borders of ``adjacencies.csv`` (a, b, armies cross, fleets cross), and the
    support-only ones (``units`` = ``support``)."""
    rows = _read_csv(folder / "adjacencies.csv", ("a", "b", "units"))
    borders: list[tuple[str, str, bool, bool]] = []
    support_borders: list[tuple[str, str]] = []
    seen: dict[tuple[frozenset[str], bool], int] = {}

    def check_location(loc: str, line: int) -> Province:
        province = provinces.get(province_of(loc))
        if province is None:
            raise VariantError(f"{loc!r} is not a province of provinces.csv",
                               file="adjacencies.csv", line=line)
        if loc != province.id and loc not in province.coasts:
            raise VariantError(f"{loc!r} is not a coast listed in coasts.csv",
                               file="adjacencies.csv", line=line)
        if province.terrain is Terrain.IMPASSABLE:
            raise VariantError(f"{loc!r} is impassable and can have no borders",
                               file="adjacencies.csv", line=line)
        return province

    for line, row in rows:
        a, b, units = row["a"], row["b"], row["units"]
        pa, pb = check_location(a, line), check_location(b, line)
        if pa.id == pb.id:
            raise VariantError(f"{a!r} cannot border itself", file="adjacencies.csv", line=line)
        if units == "support":
            # fleets may support across, no unit moves across: one side must hold fleets
            if pa.terrain is Terrain.LAND and pb.terrain is Terrain.LAND:
                raise VariantError(f"a support border needs a side where fleets stand ({a}, "
                                   f"{b} are inland)", file="adjacencies.csv", line=line)
            support_borders.append((a, b))
            continue
        if units not in _UNITS_COLUMN:
            raise VariantError(f"units {units!r} must be army, fleet, both or support",
                               file="adjacencies.csv", line=line)
        by_army, by_fleet = _UNITS_COLUMN[units]
        if by_army:
            for loc, prov in ((a, pa), (b, pb)):
                if prov.terrain is Terrain.SEA:
                    raise VariantError(f"armies cannot cross into the sea space {loc!r}",
                                       file="adjacencies.csv", line=line)
                if loc != prov.id and units == "army":
                    raise VariantError(f"an army border names the province, not {loc!r}",
                                       file="adjacencies.csv", line=line)
        if by_fleet:
            for loc, prov in ((a, pa), (b, pb)):
                if prov.terrain is Terrain.LAND:
                    raise VariantError(f"fleets cannot enter the inland province {loc!r}",
                                       file="adjacencies.csv", line=line)
                if prov.coasts and loc == prov.id:
                    raise VariantError(
                        f"{loc!r} has several coasts: a fleet border must name one "
                        f"({', '.join(prov.coasts)})",
                        file="adjacencies.csv",
                        line=line,
                    )
        for kind, flag in (("army", by_army), ("fleet", by_fleet)):
            if not flag:
                continue
            key = (frozenset((a, b) if kind == "fleet" else (pa.id, pb.id)), kind == "fleet")
            if key in seen:
                raise VariantError(
                    f"the {kind} border {a}-{b} is already listed on line {seen[key]}",
                    file="adjacencies.csv",
                    line=line,
                )
            seen[key] = line
        borders.append((a, b, by_army, by_fleet))
    return borders, support_borders


def _check_connected(the_map: Map) -> None:
    passable = [p.id for p in the_map.provinces.values() if p.terrain is not Terrain.IMPASSABLE]
    if not passable:
        raise VariantError("the map has no passable spaces", file="provinces.csv")
    # A support border joins its two sides too: a space only fleets beside it can support into
    # (a pole, which armies reach only by a convoy the variant's rules give) is part of the
    # map.
    supported: dict[str, set[str]] = {}
    for a, b in the_map.support_borders:
        supported.setdefault(province_of(a), set()).add(province_of(b))
        supported.setdefault(province_of(b), set()).add(province_of(a))
    seen = {passable[0]}
    todo = [passable[0]]
    while todo:
        here = the_map.provinces[todo.pop()]
        near = set(the_map.army_neighbours(here.id)) | supported.get(here.id, set())
        for loc in (here.id, *here.coasts):
            near.update(province_of(n) for n in the_map.fleet_neighbours(loc))
        for other in near - seen:
            seen.add(other)
            todo.append(other)
    cut_off = sorted(set(passable) - seen)
    if cut_off:
        raise VariantError(
            f"these spaces cannot be reached from {passable[0]}: {', '.join(cut_off)}",
            file="adjacencies.csv",
        )


def _load_start_units(
    start: Mapping[str, Any], the_map: Map, power_ids: Mapping[str, str], lines: TomlLines
) -> tuple[StartUnit, ...]:
    """The ``[start]`` units; ``power_ids``: each power's id -> that id as the variant holds
    it (the units name their power with the same string object)."""
    units: list[StartUnit] = []
    taken: dict[str, str] = {}
    for power_id, entries in start.items():
        if power_id not in power_ids:
            raise VariantError(f"[start] names an unknown power {power_id!r}",
                               file="variant.toml", line=lines.of("start", power_id))
        if not isinstance(entries, list):
            raise VariantError(f"[start] {power_id} must be a list of units, e.g. [\"A par\"]",
                               file="variant.toml", line=lines.of("start", power_id))
        for entry in entries:
            match = re.fullmatch(r"\s*([AFaf])\s+([a-z0-9_/]+)\s*", str(entry))
            if match is None:
                raise VariantError(
                    f"[start] {power_id}: {entry!r} should look like 'A par' or 'F stp/sc'",
                    file="variant.toml", line=lines.of("start", power_id),
                )
            unit_type = UnitType(match.group(1).upper())
            location = the_map.same_name(match.group(2))
            if not the_map.can_hold(unit_type, location):
                raise VariantError(
                    f"[start] {power_id}: a {unit_type.name.lower()} cannot stand at {location!r}",
                    file="variant.toml", line=lines.of("start", power_id),
                )
            province = province_of(location)
            if province in taken:
                raise VariantError(
                    f"[start] {power_id}: {province} already holds a unit of {taken[province]}",
                    file="variant.toml", line=lines.of("start", power_id),
                )
            taken[province] = power_id
            units.append(StartUnit(power_ids[power_id], unit_type, location))
    return tuple(units)
