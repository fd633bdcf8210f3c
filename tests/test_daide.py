"""DAIDE (issue 31): the message syntax both ways, the classical map in DAIDE's names, orders and
positions translated there and back, the server's answers over TCP, and whole games of
realpolitik's bots through the DAIDE server and client.

The games against Parlance's server and DumbBot (Python 2.7) are in test_daide_parlance.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import struct
from collections.abc import Awaitable, Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.bots import make_bot
from realpolitik.cli import main
from realpolitik.daide.board import DaideMap, MapError, OrderNote, convoy_routes, loose
from realpolitik.daide.client import play_bots
from realpolitik.daide.server import DaideServer, GameSummary, ServerSettings
from realpolitik.daide.tokens import (
    FIXED_TOKENS,
    DaideSyntaxError,
    Item,
    Message,
    Text,
    TokenTable,
    decode,
    encode,
    format_message,
    parse_message,
)
from realpolitik.daide.wire import Frame, frame, initial_message, parse_representation
from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.listing import legal_orders
from realpolitik.orders import Move, Order, SupportMove
from realpolitik.position import Position, Unit
from realpolitik.variant import load_variant

CLASSICAL = load_variant("classical")
VARIANTS = Path(__file__).parent / "variants"
STANDARD = TokenTable.standard()
DMAP = DaideMap.of(CLASSICAL)

# -- the message syntax ---------------------------------------------------------------------

_names = st.sampled_from(sorted([*FIXED_TOKENS, *STANDARD.variable]))
_texts = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=12)


def _no_adjacent_texts(items: list[Item]) -> bool:
    """Two texts side by side are one text on the wire (the protocol has no separator)."""
    return not any(isinstance(a, Text) and isinstance(b, Text) for a, b in pairwise(items))


_items: st.SearchStrategy[Item] = st.recursive(
    st.one_of(_names, st.integers(-8192, 8191), _texts.map(Text)),
    lambda inner: st.lists(inner, max_size=5).filter(_no_adjacent_texts).map(tuple),
    max_leaves=15)
_messages = st.lists(_items, min_size=1, max_size=6).filter(_no_adjacent_texts).map(tuple)


@given(_messages)
@settings(max_examples=80, deadline=None)
def test_a_message_survives_the_wire_and_the_text_form(message: Message) -> None:
    assert decode(encode(message, STANDARD), STANDARD) == message
    assert parse_message(format_message(message)) == message


def test_the_documents_examples_read_as_written() -> None:
    message = parse_message("SUB ((ENG FLT BAR) MTO (STP NCS)) ((ENG AMY YOR) CTO NWY VIA (NTH))")
    assert message == ("SUB", (("ENG", "FLT", "BAR"), "MTO", ("STP", "NCS")),
                       (("ENG", "AMY", "YOR"), "CTO", "NWY", "VIA", ("NTH",)))
    assert parse_message("NME ('DumbBot') (\"v1\")") == ("NME", (Text("DumbBot"),), (Text("v1"),))
    # the protocol document's numbers: HLO is 0x4804, LON 0x553A, a negative number in 14 bits
    assert encode(("HLO", "LON", -1), STANDARD) == bytes([0x48, 0x04, 0x55, 0x3A, 0x3F, 0xFF])


@pytest.mark.parametrize(("data", "index", "words"), [
    (bytes([0x40, 0x00, 0x48, 0x04]), 1, "never closed"),
    (bytes([0x48, 0x04, 0x40, 0x01]), 1, "closes nothing"),
    (bytes([0x48, 0x04, 0x5F, 0x00]), 1, "0x5F00"),
    (bytes([0x48, 0x04, 0x40]), 1, "two bytes each"),
])
def test_a_message_that_cannot_be_read_says_where(data: bytes, index: int, words: str) -> None:
    with pytest.raises(DaideSyntaxError, match=words) as caught:
        decode(data, STANDARD)
    assert caught.value.index == index


@pytest.mark.parametrize(("text", "words"), [
    ("HLO (ENG", "never closed"), ("HLO ENG)", "closes nothing"), ("HLO #", "'#'"),
    ("HELLO", "'HELLO'"),
])
def test_text_that_is_no_message_says_what(text: str, words: str) -> None:
    with pytest.raises(DaideSyntaxError, match=words):
        parse_message(text)


def test_a_representation_message_replaces_the_standard_tokens() -> None:
    table = STANDARD.with_representation([(0x4100, "ABC"), (0x5000, "XYZ")])
    assert table.is_power("ABC") and table.is_province("XYZ")
    assert not table.is_power("ENG") and "LON" not in table.by_name
    assert STANDARD.with_representation([]) is STANDARD


# -- the classical map in DAIDE's words ------------------------------------------------------

def test_the_classical_map_has_the_standard_names_and_numbers() -> None:
    assert DMAP.name == "standard" and DMAP.is_standard()
    assert dict((name, number) for number, name in DMAP.representation()) == STANDARD.variable
    assert DMAP.province_tokens["eng"] == "ECH" and DMAP.power_tokens["england"] == "ENG"


def test_the_map_description_matches_the_documents_example() -> None:
    mdf = DMAP.mdf()
    assert mdf[1] == ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
    adjacencies = {entry[0]: entry[1:] for entry in mdf[3]}
    assert adjacencies["BUL"] == (("AMY", "CON", "GRE", "RUM", "SER"),
                                  (("FLT", "ECS"), "BLA", "CON", "RUM"),
                                  (("FLT", "SCS"), "AEG", "CON", "GRE"))
    assert adjacencies["ADR"] == (("FLT", "ALB", "APU", "ION", "TRI", "VEN"),)
    assert ("UNO", "NWY", "SWE", "DEN", "HOL", "BEL", "SPA", "POR", "TUN", "GRE", "SER", "BUL",
            "RUM") in mdf[2][0]
    DMAP.check_mdf(mdf)


def test_a_map_description_of_another_map_is_refused() -> None:
    mdf = DMAP.mdf()
    changed = list(mdf)
    changed[1] = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "SPA")
    with pytest.raises(MapError, match="powers"):
        DMAP.check_mdf(tuple(changed))
    adjacencies = list(mdf[3])
    adjacencies[0] = (adjacencies[0][0], ("FLT", "ADR"))
    with pytest.raises(MapError, match="adjacencies"):
        DMAP.check_mdf((mdf[0], mdf[1], mdf[2], tuple(adjacencies)))


def test_a_map_too_large_for_daide_is_refused_with_its_size() -> None:
    with pytest.raises(MapError, match=r"552 provinces and 17 powers \(DAIDE names at most 256 "
                       r"of each\); rules of its own \(ColonialWinters\)"):
        DaideMap.of(load_variant("colonial_winters"))


@pytest.mark.filterwarnings("ignore:.*nobody can win outright")  # the test variants are small
@pytest.mark.parametrize(("folder", "words"), [
    ("river", "convoys through land"), ("gate", "borders that open and close"),
    ("neutrals", "neutral units"), ("hill", "rules of its own (KingOfTheHill)"),
    # each build rule named as the variant has it (a cap on builds is no per-power rule)
    ("build_anywhere", "builds in any owned centre"),
    ("colonies", "at most 1 build a winter; home centres, build sites or unit limits of "
                 "their own for Red, Blue"),
])
def test_a_variant_with_rules_beyond_daide_is_refused_saying_which(folder: str,
                                                                   words: str) -> None:
    with pytest.raises(MapError, match=re.escape(words)):
        DaideMap.of(load_variant(VARIANTS / folder))


def _positions_of_a_bot_game(years: int = 3) -> list[Position]:
    game = Game(CLASSICAL, seed=3, end_year=1900 + years)
    bot = make_bot("heuristic", seed=3)
    positions = []
    while not game.is_over:
        positions.append(game.position)
        for power in game.powers_to_order():
            game.submit(power, bot.orders(game.position, power, game.rules))
        game.process()
    return positions


POSITIONS = _positions_of_a_bot_game()


def test_every_legal_order_reads_back_as_itself() -> None:
    """Every order the engine lists, in every phase of a bot game, written in DAIDE and read
    back, is the same order as far as DAIDE can say it (a support names no coast), and that
    form stands for that order alone."""
    checked = 0
    the_map = CLASSICAL.map
    for position in POSITIONS:
        for power in CLASSICAL.power_ids:
            listing = legal_orders(position, power)
            listed = {o for options in listing.values() for o in options}
            for options in listing.values():
                for order in options:
                    written = DMAP.order(order, position)
                    text = format_message((written,))
                    again = DMAP.read_order(parse_message(text)[0], position, power)
                    assert loose(again, the_map) == loose(order, the_map), text
                    # and DAIDE's form stands for one listed order only, but for the
                    # supports of a fleet's moves to each coast of one province (a support
                    # names no coast)
                    alike = [o for o in listed if loose(o, the_map) == loose(order, the_map)]
                    assert len(alike) == 1 or all(isinstance(o, SupportMove)
                                                  for o in alike), text
                    checked += 1
    assert checked > 2000


def test_a_move_by_convoy_names_its_fleets() -> None:
    units = [Unit("england", UnitType.ARMY, "lon"), Unit("england", UnitType.FLEET, "nth"),
             Unit("england", UnitType.FLEET, "nwg")]
    position = Position.build(CLASSICAL, "S1901M", units, {})
    listing = legal_orders(position, "england")
    move = next(o for o in listing["lon"] if isinstance(o, Move) and o.destination == "nwy")
    convoys = [o for loc in ("nth", "nwg") for o in listing[loc]
               if getattr(o, "army_location", None) == "lon" and o.destination == "nwy"]
    orders: list[Order] = [move, *convoys[:1]]
    routes = convoy_routes(orders, position)
    assert DMAP.order(move, position, routes) == (("ENG", "AMY", "LON"), "CTO", "NWY", "VIA",
                                                  ("NTH",))


@pytest.mark.parametrize(("text", "note"), [
    ("((FRA AMY PAR) MTO BUR)", "NYU"),       # England gives France's order
    ("((ENG AMY PAR) MTO BUR)", "NSU"),       # no English army in Paris
    ("((ENG AMY LVP) RTO YOR)", "NRS"),       # a retreat in a movement phase
    ("((ENG AMY XYZ) HLD)", "NSP"),
    ("((ENG AMY LVP) FLY)", "HUH"),
])
def test_an_order_that_cannot_be_taken_gets_its_note(text: str, note: str) -> None:
    position = Position.initial(CLASSICAL)
    with pytest.raises(OrderNote) as caught:
        DMAP.read_order(parse_message(text)[0], position, "england")
    assert caught.value.note == note


def test_a_position_reads_back_from_now_and_sco() -> None:
    retreats = [p for p in POSITIONS if p.dislodged]
    assert retreats, "the seeded game has a retreat phase"
    for position in POSITIONS:
        again = DMAP.read_position(DMAP.now(position), DMAP.sco(position))
        assert again.phase == position.phase
        assert dict(again.units) == dict(position.units)
        assert dict(again.centers) == dict(position.centers)
        for power in CLASSICAL.power_ids:  # the same retreats, from MRT alone
            assert {str(o) for opts in legal_orders(again, power).values() for o in opts} == \
                {str(o) for opts in legal_orders(position, power).values() for o in opts}


# -- the server over TCP ---------------------------------------------------------------------

def _run(test: Callable[[int, asyncio.Task[list[GameSummary]]], Awaitable[None]],
         **options: Any) -> None:
    async def body() -> None:
        settings = ServerSettings(CLASSICAL, port=0, **options)
        server = DaideServer(settings)
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(server.run(ready.set_result))
        port = await ready
        try:
            await asyncio.wait_for(test(port, task), 60)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task  # a server that failed fails the test here
    asyncio.run(body())


class _RawClient:
    """A bare DAIDE connection for the tests: frames in, messages out."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int, first: bytes | None = None) -> _RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(initial_message() if first is None else first)
        return cls(reader, writer)

    async def frame(self) -> tuple[int, bytes]:
        kind, _, length = struct.unpack("!BBH", await self.reader.readexactly(4))
        return kind, await self.reader.readexactly(length)

    async def message(self) -> Message:
        kind, payload = await self.frame()
        assert kind == Frame.DIPLOMACY, (kind, payload)
        return decode(payload, STANDARD)

    def send(self, text: str) -> None:
        self.writer.write(frame(Frame.DIPLOMACY, encode(parse_message(text), STANDARD)))


def test_the_handshake_names_the_map_and_describes_it() -> None:
    async def test(port: int, _task: object) -> None:
        client = await _RawClient.open(port)
        kind, payload = await client.frame()
        assert kind == Frame.REPRESENTATION
        assert dict((n, num) for num, n in parse_representation(payload)) == STANDARD.variable
        client.send("NME ('tester') ('v1')")
        assert await client.message() == ("YES", ("NME", (Text("tester"),), (Text("v1"),)))
        assert await client.message() == ("MAP", (Text("standard"),))
        client.send("MDF")
        assert await client.message() == DMAP.mdf()
        client.send("SUB ((ENG AMY LVP) HLD)")  # the game has not started
        assert (await client.message())[0] == "REJ"
        client.send("HLO")
        assert (await client.message())[0] == "REJ"
        client.send("NOW")
        assert await client.message() == DMAP.now(Position.initial(CLASSICAL))
        client.send("SCO")
        assert await client.message() == DMAP.sco(Position.initial(CLASSICAL))
        client.send("ENG HLO")  # no such command
        assert await client.message() == ("HUH", ("ERR", "ENG", "HLO"))
        client.send("HST (SPR 1901)")  # no history kept
        assert await client.message() == ("REJ", ("HST", ("SPR", 1901)))
        client.writer.write(frame(Frame.DIPLOMACY, bytes([0x48, 0x04, 0x5F, 0x00])))
        assert await client.message() == ("HUH", ("ERR",))  # a token that does not exist
        client.writer.write(frame(Frame.DIPLOMACY, bytes([0x48, 0x04, 0x40, 0x00])))
        kind, payload = await client.frame()  # PRN quotes it, its lone bracket included
        assert payload == bytes([0x48, 0x13, 0x40, 0x00, 0x48, 0x04, 0x40, 0x00, 0x40, 0x01])
        client.send("PNG (1)")
        assert await client.message() == ("YES", ("PNG", (1,)))
    _run(test)


@pytest.mark.parametrize(("first", "code"), [
    (frame(Frame.INITIAL, struct.pack("!HH", 1, 0x1234)), 0x04),
    (frame(Frame.INITIAL, struct.pack("!HH", 1, 0x10DA)), 0x03),
    (frame(Frame.INITIAL, struct.pack("!HH", 2, 0xDA10)), 0x05),
    (frame(Frame.DIPLOMACY, b"\x48\x0c"), 0x02),
])
def test_a_bad_first_message_gets_an_error_message(first: bytes, code: int) -> None:
    async def test(port: int, _task: object) -> None:
        client = await _RawClient.open(port, first)
        kind, payload = await client.frame()
        assert kind == Frame.ERROR and struct.unpack("!H", payload)[0] == code
    _run(test)


def test_a_player_submits_orders_and_is_told_what_is_missing() -> None:
    """Six bots and one DAIDE player: the orders it gives are thanked one by one, MIS lists
    the units left; the phase is processed once the last order is in."""
    async def test(port: int, _task: object) -> None:
        client = await _RawClient.open(port)
        await client.frame()
        client.send("NME ('tester') ('v1')")
        await client.message(), await client.message()
        client.send("YES (MAP ('standard'))")
        hello = await client.message()
        assert hello[0] == "HLO" and hello[3] == (("LVL", 10),)
        power = str(hello[1][0])
        assert (await client.message())[0] == "SCO"
        now = await client.message()
        assert now[:2] == ("NOW", ("SPR", 1901))
        mine = [u for u in now[2:] if u[0] == power]
        client.send(f"SUB ({format_message((mine[0],))} HLD) ((TUR AMY PAR) HLD)")
        thanks = await client.message()
        assert thanks == ("THX", (mine[0], "HLD"), ("MBV",))
        refused = await client.message()
        assert refused == ("THX", (("TUR", "AMY", "PAR"), "HLD"), ("NSU",))
        missing = await client.message()
        assert missing == ("MIS", *mine[1:])
        client.send("NOT (GOF)")
        assert await client.message() == ("YES", ("NOT", ("GOF",)))
        client.send("SUB " + " ".join(f"({format_message((u,))} HLD)" for u in mine[1:]))
        for _ in mine[1:]:
            assert (await client.message())[0] == "THX"
        client.send("GOF")
        assert await client.message() == ("YES", ("GOF",))
        results = []
        while True:
            message = await client.message()
            if message[0] == "NOW":
                break
            results.append(message)
        assert message[1] == ("FAL", 1901)
        assert len(results) == 22 and all(r[0] == "ORD" for r in results)
        assert all(r[3] == ("SUC",) for r in results if r[2][0] in mine)
    _run(test, bots=["heuristic"] * 6, end_year=1901)


def test_seven_bots_play_a_game_through_the_daide_server() -> None:
    """Seven realpolitik bots, each on its own DAIDE connection, play a short game on the
    DAIDE server: every one gets its own power, every order is taken, and what each client saw
    at the end is the server's result."""
    async def test(port: int, task: asyncio.Task[list[GameSummary]]) -> None:
        bots = [make_bot("heuristic", seed=i) for i in range(7)]
        results = await play_bots("127.0.0.1", port, bots)
        summaries = await task
        assert len(summaries) == 1
        summary = summaries[0]
        assert summary.phase == "S1903M" and summary.end_kind == "short_game"
        assert sorted(r.power or "" for r in results) == sorted(CLASSICAL.power_ids)
        server_centres = {s.power: s.centres for s in summary.seats}
        for result in results:
            assert result.problems == []
            assert result.end == "draw"
            assert result.centres == server_centres
            assert result.phases >= 4  # two springs, two falls, and whatever else was due
        assert sum(server_centres.values()) > 22  # centres were taken
    _run(test, end_year=1902, games=1)


async def _join(port: int) -> _RawClient:
    """A raw client that has joined the game and accepted the map."""
    client = await _RawClient.open(port)
    await client.frame()
    client.send("NME ('tester') ('v1')")
    await client.message(), await client.message()
    client.send("YES (MAP ('standard'))")
    return client


async def _until(client: _RawClient, head: str) -> Message:
    while True:
        message = await client.message()
        if message[0] == head:
            return message


def test_a_draw_passes_when_every_player_asks_for_it() -> None:
    """Seven DAIDE players: six ask for a draw, one changes its mind and then asks again; the
    server declares the draw (DRW, then the summary) in that same turn."""
    async def test(port: int, task: asyncio.Task[list[GameSummary]]) -> None:
        clients = [await _join(port) for _ in range(7)]
        for client in clients:
            await _until(client, "NOW")
        for client in clients[:6]:
            client.send("DRW")
            assert await client.message() == ("YES", ("DRW",))
        last = clients[6]
        last.send("NOT (DRW)")
        assert await last.message() == ("YES", ("NOT", ("DRW",)))
        last.send("DRW")
        assert await last.message() == ("YES", ("DRW",))
        for client in clients:
            assert await _until(client, "DRW") == ("DRW",)
            summary = await client.message()
            assert summary[0] == "SMR" and summary[1] == ("SPR", 1901)
            assert len(summary) == 9 and all(e[3] in (3, 4) for e in summary[2:])
        ended = await task
        assert ended[0].end_kind == "draw" and ended[0].phase == "S1901M"
        assert len(ended[0].winners) == 7
    _run(test, end_year=1901)


def test_bots_refuse_a_draw_in_the_first_years() -> None:
    """Six bots and one DAIDE player that asks for a draw in 1901: the bots' policy refuses
    it, so the turn is played."""
    async def test(port: int, _task: object) -> None:
        client = await _join(port)
        now = await _until(client, "NOW")
        client.send("DRW")
        assert await client.message() == ("YES", ("DRW",))
        # every unit's hold: the player's own are taken, the others refused (NYU)
        client.send("SUB " + " ".join(f"({format_message((u,))} HLD)" for u in now[2:]))
        assert (await _until(client, "NOW"))[1] == ("FAL", 1901)
    _run(test, bots=["heuristic"] * 6, end_year=1901)


def test_a_deadline_plays_the_phase_without_the_missing_orders() -> None:
    async def test(port: int, _task: object) -> None:
        client = await _join(port)
        hello = await _until(client, "HLO")
        assert hello[3] == (("LVL", 10), ("MTL", 1), ("RTL", 1), ("BTL", 1))
        assert (await _until(client, "NOW"))[1] == ("SPR", 1901)
        started = asyncio.get_running_loop().time()
        results = []
        while (message := await client.message())[0] != "NOW":
            results.append(message)
        assert asyncio.get_running_loop().time() - started >= 0.4
        assert message[1] == ("FAL", 1901)
        assert sum(1 for r in results if r[0] == "ORD") == 22
    _run(test, bots=["heuristic"] * 6, end_year=1901, deadline=0.5)


def test_a_player_who_leaves_does_not_hold_up_the_game() -> None:
    """A DAIDE player disconnects after the game starts: its units hold, and the game plays
    on to its end with the other player."""
    async def test(port: int, task: asyncio.Task[list[GameSummary]]) -> None:
        leaving = await _join(port)
        staying = asyncio.create_task(play_bots("127.0.0.1", port, [make_bot("heuristic")]))
        await _until(leaving, "NOW")
        leaving.writer.close()
        summary = (await task)[0]
        assert summary.phase == "S1902M"
        result = (await staying)[0]
        assert result.end == "draw" and result.problems == []
    _run(test, bots=["heuristic"] * 5, end_year=1901)


def test_a_player_who_dropped_takes_its_seat_back_with_its_passcode() -> None:
    async def test(port: int, _task: object) -> None:
        first = await _join(port)
        idle = await _join(port)  # gives no orders: the game stays in Spring 1901
        hello = await _until(first, "HLO")
        power, passcode = hello[1], hello[2]
        now = await _until(first, "NOW")
        first.writer.close()
        again = await _RawClient.open(port)
        await again.frame()
        wrong = (passcode[0] + 1) % 8000,
        again.send(f"IAM {format_message((power,))} {format_message((wrong,))}")
        assert (await again.message())[0] == "REJ"
        again.send(f"IAM {format_message((power,))} {format_message((passcode,))}")
        assert await again.message() == ("YES", ("IAM", power, passcode))
        assert await again.message() == ("NOT", ("CCD", power))  # to every client
        again.send("HLO")
        assert await again.message() == hello
        again.send("NOW")
        assert await again.message() == now
        idle.writer.close()
    _run(test, bots=["heuristic"] * 5, end_year=1901)


def test_press_is_passed_on_and_observers_see_the_game() -> None:
    """Level 10 press from one DAIDE player reaches the one it names as FRM, unread; an
    observer gets the map, then the position as the game starts."""
    async def test(port: int, _task: object) -> None:
        observer = await _RawClient.open(port)
        await observer.frame()
        observer.send("OBS")
        assert await observer.message() == ("YES", ("OBS",))
        assert await observer.message() == ("MAP", (Text("standard"),))
        observer.send("YES (MAP ('standard'))")
        first, second = await _join(port), await _join(port)
        me = (await _until(first, "HLO"))[1][0]
        them = (await _until(second, "HLO"))[1][0]
        assert (await _until(observer, "NOW"))[1] == ("SPR", 1901)
        await _until(first, "NOW")
        press = f"SND ({them}) (PRP (PCE ({me} {them})))"
        first.send(press)
        assert await first.message() == ("YES", parse_message(press))
        assert await _until(second, "FRM") == (
            "FRM", (me,), (them,), ("PRP", ("PCE", (me, them))))
    _run(test, bots=["heuristic"] * 5, end_year=1901)


@pytest.mark.filterwarnings("ignore:.*nobody can win outright")  # the test variants are small
def test_another_variant_plays_through_daide() -> None:
    """A small variant of the test suite: the server names its powers and provinces in a
    representation message, the clients read the map by those names, check its description
    and play the game to its end."""
    variant = load_variant(VARIANTS / "retreats")
    dmap = DaideMap.of(variant)
    assert dmap.name == "retreats" and not dmap.is_standard()

    async def body() -> None:
        server = DaideServer(ServerSettings(variant, port=0, end_year=1903))
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(server.run(ready.set_result))
        port = await ready
        bots = [make_bot("heuristic", seed=i) for i in range(len(variant.power_ids))]
        results = await asyncio.wait_for(
            play_bots("127.0.0.1", port, bots, variants=[variant]), 60)
        summary = (await task)[0]
        assert sorted(r.power or "" for r in results) == sorted(variant.power_ids)
        for result in results:
            assert result.power is not None
            assert result.power_name == variant.power_name(result.power)  # what daide play prints
            assert result.problems == [] and result.end
            assert result.centres == {s.power: s.centres for s in summary.seats}
    asyncio.run(body())


# -- the command line ------------------------------------------------------------------------

def test_daide_serve_refuses_a_map_daide_cannot_describe(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["daide", "serve", "--variant", "colonial_winters", "--port", "0"]) == 2
    assert "552 provinces" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "words"), [
    (["daide", "play", "nowhere"], "HOST:PORT"),
    (["daide", "play", "localhost:1", "--bot", "genius"], "the bots are"),
    (["daide", "serve", "--bots", "heuristic*8", "--port", "0"], "8 bots for 7 powers"),
])
def test_daide_commands_say_what_is_wrong(argv: list[str], words: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_daide_play_says_why_a_bot_got_no_seat(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot the server seats nowhere is said to have no seat, with the server's reason (it
    was printed as 'no power, 0 centres at the end'), and the command exits 1."""
    from realpolitik.daide import client

    async def refused(*args: object, **options: object) -> list[client.ClientResult]:
        return [client.ClientResult(end="the server has no game 'Nosuch' for DAIDE bots")]

    monkeypatch.setattr(client, "play_bots", refused)
    assert main(["daide", "play", "localhost:1", "--game", "Nosuch"]) == 1
    out = capsys.readouterr().out
    assert out == "bot 1: no seat: the server has no game 'Nosuch' for DAIDE bots\n"


def test_daide_serve_plays_bots_alone_and_prints_each_game(capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """Seven bots and no seat for DAIDE clients: the games play at once, a JSON line each."""
    argv = ["daide", "serve", "--bots", "heuristic*7", "--games", "2", "--end-year", "1901",
            "--port", "0", "--quiet", "--json"]
    assert main(argv) == 0
    games = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["game"] for g in games] == [1, 2]
    for game in games:
        assert game["end"] == "short_game" and game["phase"] == "S1902M"
        assert {s["player"] for s in game["seats"]} == {"realpolitik heuristic bot"}
        assert sum(s["centres"] for s in game["seats"]) >= 22
