"""The arena: bots play games against each other, and a league table says how each did.

In game ``i`` the bots are seated in turn on the powers, rotated by ``i`` places, so over many
games every bot plays every power. Each game stops at a solo victory or after the adjustments
of ``end_year``.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from realpolitik.bots.base import Bot
from realpolitik.game import EndKind, Game
from realpolitik.rules import Rules, rules_for
from realpolitik.variant import Variant, load_variant


def parse_lineup(text: str, available: Sequence[str]) -> list[str]:
    """Read a line-up of bots: names separated by commas, ``NAME*N`` for N seats of one bot
    (``heuristic,random*6``).

    :raises ValueError: a name is not a bot, or a count is not a positive whole number.
    """
    names: list[str] = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        name, star, count_text = part.partition("*")
        name = name.strip()
        count = 1
        if star:
            try:
                count = int(count_text)
            except ValueError:
                count = 0
            if count < 1:
                raise ValueError(f"{part!r}: write NAME*N with N a whole number from 1 up")
        if name not in available:
            raise ValueError(f"{name!r} is not a bot: the bots are {', '.join(available)}")
        names.extend([name] * count)
    if not names:
        raise ValueError("no bots named: write them separated by commas, e.g. "
                         "heuristic,random*6")
    return names


@dataclass
class Standing:
    """One bot's line of the league table: what became of the powers it played."""

    bot: str
    seats: int = 0
    """Games played, one per seat: a bot on six powers of a game plays six seats."""
    wins: int = 0
    """Solo victories."""
    draws: int = 0
    """Games with no solo victory that the bot was still in at the end."""
    survivals: int = 0
    """Games another power won that the bot was still in at the end."""
    eliminations: int = 0
    top: int = 0
    """Games it ended with strictly more centres than any other power."""
    centers: int = 0
    """Centres at the end, summed over its games."""

    @property
    def mean_centers(self) -> float:
        return self.centers / self.seats if self.seats else 0.0

    def as_json(self) -> dict[str, object]:
        """The line as a JSON object."""
        return {"bot": self.bot, "seats": self.seats, "wins": self.wins, "draws": self.draws,
                "survivals": self.survivals, "eliminations": self.eliminations,
                "top": self.top, "mean_centers": round(self.mean_centers, 2)}


@dataclass
class GameSummary:
    """One game of the arena: who played which power, how it ended, the centres at the end."""

    index: int
    seed: int
    seats: dict[str, str]
    """Power -> bot name."""
    end_kind: str
    winners: tuple[str, ...]
    phase: str
    centers: dict[str, int]
    game: Game = field(repr=False)

    def as_json(self) -> dict[str, object]:
        return {"index": self.index, "seed": self.seed, "seats": self.seats,
                "end": self.end_kind, "winners": list(self.winners), "phase": self.phase,
                "centers": self.centers}


@dataclass
class PhaseTiming:
    """Seconds each bot spent choosing one power's orders, per bot name, by ``clock`` (wall
    time by default; ``time.process_time`` counts only this process's CPU, steadier on a
    shared machine)."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    clock: Callable[[], float] = time.perf_counter

    def add(self, bot: str, seconds: float) -> None:
        self.seconds.setdefault(bot, []).append(seconds)


def play_game(variant: Variant, bots: dict[str, Bot], *, seed: int, end_year: int,
              rules: Rules, timing: PhaseTiming | None = None) -> Game:
    """Play one game with ``bots`` (power -> bot) to a victory or to the end of ``end_year``.
    Every power without a bot, if any, gives no orders (civil disorder)."""
    game = Game(variant, rules=rules, seed=seed, end_year=end_year)
    clock = timing.clock if timing is not None else time.perf_counter
    while not game.is_over:
        position = game.position
        for power in game.powers_to_order():
            bot = bots.get(power)
            if bot is None:
                continue
            started = clock()
            orders = bot.orders(position, power, rules)
            if timing is not None:
                timing.add(bot.name, clock() - started)
            game.submit(power, orders)
        game.process()
    return game


def run_arena(lineup: Sequence[str], *, games: int, seed: int = 0,
              variant: Variant | str = "classical", rules: Rules | str = "2023",
              end_year: int = 1920, make: Callable[[str, int], Bot] | None = None,
              timing: PhaseTiming | None = None,
              on_game: Callable[[GameSummary], None] | None = None,
              jobs: int = 1,
              ) -> tuple[list[Standing], list[GameSummary]]:
    """Play ``games`` games with the bots of ``lineup`` (one per power, rotated each game) and
    return the league table (one line per distinct bot, in line-up order) and the games.

    ``jobs`` > 1 plays the games in that many processes (the games, each played from its
    own seed, and the table are the same as with one; ``make`` must then be a module-level
    function, and ``timing``, which one process keeps, is refused).

    :raises ValueError: the line-up does not name one bot per power of the variant, or
        ``jobs`` is less than 1 or comes with ``timing``.
    """
    from realpolitik.bots import make_bot

    loaded = load_variant(variant) if isinstance(variant, str) else variant
    the_rules = rules if isinstance(rules, Rules) else rules_for(rules)
    powers = loaded.power_ids
    if len(lineup) != len(powers):
        raise ValueError(f"{loaded.name} has {len(powers)} powers but {len(lineup)} bots were "
                         f"named: name one bot per power")
    if jobs < 1:
        raise ValueError(f"jobs {jobs}: play in at least one process")
    if jobs > 1 and timing is not None:
        raise ValueError("the bots' timing is kept in one process: time them without jobs")
    maker = make or make_bot
    table: dict[str, Standing] = {}
    for name in lineup:
        table.setdefault(name, Standing(name))
    plans = [_GamePlan(loaded, tuple(lineup), index, seed + index, end_year, the_rules, maker)
             for index in range(games)]
    summaries: list[GameSummary] = []
    if jobs == 1:
        played: Iterable[Game] = (_play_planned(plan, timing) for plan in plans)
        _tally(plans, played, table, summaries, on_game)
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, games)) as pool:
            _tally(plans, pool.map(_play_planned, plans), table, summaries, on_game)
    return list(table.values()), summaries


@dataclass(frozen=True)
class _GamePlan:
    """One game of an arena, as a process is handed it."""

    variant: Variant
    lineup: tuple[str, ...]
    index: int
    seed: int
    end_year: int
    rules: Rules
    make: Callable[[str, int], Bot]

    @property
    def seats(self) -> dict[str, str]:
        powers = self.variant.power_ids
        return {power: self.lineup[(place + self.index) % len(self.lineup)]
                for place, power in enumerate(powers)}


def _play_planned(plan: _GamePlan, timing: PhaseTiming | None = None) -> Game:
    bots = {power: plan.make(name, plan.seed * 1000 + place)
            for place, (power, name) in enumerate(plan.seats.items())}
    return play_game(plan.variant, bots, seed=plan.seed, end_year=plan.end_year,
                     rules=plan.rules, timing=timing)


def _tally(plans: Sequence[_GamePlan], played: Iterable[Game], table: dict[str, Standing],
           summaries: list[GameSummary], on_game: Callable[[GameSummary], None] | None,
           ) -> None:
    """Count each game, in the order played, into ``table`` and ``summaries``."""
    for plan, game in zip(plans, played, strict=True):
        seats = plan.seats
        end = game.end
        assert end is not None
        centers = game.centers()
        solo = end.kind is EndKind.VICTORY
        active = set(game.active_powers())
        for power, name in seats.items():
            line = table[name]
            line.seats += 1
            line.centers += centers.get(power, 0)
            if solo and power in end.winners:
                line.wins += 1
            elif power not in active:
                line.eliminations += 1
            elif solo:
                line.survivals += 1
            else:
                line.draws += 1
            if all(centers.get(power, 0) > n for p, n in centers.items() if p != power):
                line.top += 1
        summary = GameSummary(plan.index, plan.seed, seats, end.kind.value, end.winners,
                              end.phase, centers, game)
        summaries.append(summary)
        if on_game is not None:
            on_game(summary)


def league_text(table: Sequence[Standing]) -> str:
    """The league table as aligned text, best first (wins, then mean centres)."""
    ranked = sorted(table, key=lambda s: (-s.wins, -s.mean_centers, s.bot))
    width = max([len("bot")] + [len(s.bot) for s in ranked])
    lines = [f"{'bot':<{width}}  seats  wins  draws  survivals  eliminated  top  mean centres"]
    for s in ranked:
        lines.append(f"{s.bot:<{width}}  {s.seats:>5}  {s.wins:>4}  {s.draws:>5}  "
                     f"{s.survivals:>9}  {s.eliminations:>10}  {s.top:>3}  {s.mean_centers:>12.2f}")
    return "\n".join(lines)
