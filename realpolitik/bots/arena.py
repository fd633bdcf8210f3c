"""The arena: bots play games against each other, and a league table says how each did.

In game ``i`` the bots are seated in turn on the powers, rotated by ``i`` places, so over many
games every bot plays every power. Each game stops at a solo victory or after the adjustments
of ``end_year``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
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
              ) -> tuple[list[Standing], list[GameSummary]]:
    """Play ``games`` games with the bots of ``lineup`` (one per power, rotated each game) and
    return the league table (one line per distinct bot, in line-up order) and the games.

    :raises ValueError: the line-up does not name one bot per power of the variant.
    """
    from realpolitik.bots import make_bot

    loaded = load_variant(variant) if isinstance(variant, str) else variant
    the_rules = rules if isinstance(rules, Rules) else rules_for(rules)
    powers = loaded.power_ids
    if len(lineup) != len(powers):
        raise ValueError(f"{loaded.name} has {len(powers)} powers but {len(lineup)} bots were "
                         f"named: name one bot per power")
    maker = make or make_bot
    table: dict[str, Standing] = {}
    for name in lineup:
        table.setdefault(name, Standing(name))
    summaries: list[GameSummary] = []
    for index in range(games):
        game_seed = seed + index
        seats = {power: lineup[(place + index) % len(lineup)]
                 for place, power in enumerate(powers)}
        bots = {power: maker(name, game_seed * 1000 + place)
                for place, (power, name) in enumerate(seats.items())}
        game = play_game(loaded, bots, seed=game_seed, end_year=end_year, rules=the_rules,
                         timing=timing)
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
        summary = GameSummary(index, game_seed, seats, end.kind.value, end.winners,
                              end.phase, centers, game)
        summaries.append(summary)
        if on_game is not None:
            on_game(summary)
    return list(table.values()), summaries


def league_text(table: Sequence[Standing]) -> str:
    """The league table as aligned text, best first (wins, then mean centres)."""
    ranked = sorted(table, key=lambda s: (-s.wins, -s.mean_centers, s.bot))
    width = max([len("bot")] + [len(s.bot) for s in ranked])
    lines = [f"{'bot':<{width}}  seats  wins  draws  survivals  eliminated  top  mean centres"]
    for s in ranked:
        lines.append(f"{s.bot:<{width}}  {s.seats:>5}  {s.wins:>4}  {s.draws:>5}  "
                     f"{s.survivals:>9}  {s.eliminations:>10}  {s.top:>3}  {s.mean_centers:>12.2f}")
    return "\n".join(lines)
