"""State monkeys for the line mode: every command, typed at random moments, in every state.

A seeded monkey types the line mode's commands (moves, the table's questions,
the switches, nonsense, online talk and leaving) while a game runs here,
against a real server, and in a replay, and moves the clock on by random
steps so its lines land between a turn and its move, while a card is being
turned (a bot's, and the person's own just after the move), between turns
and after the end.  Everything written goes to a ``Witness``, which holds
each line against the game as it stood when it was written: no traceback,
no "game over" before the end, no "your turn" when it is not, no odds or
advice for another seat as if it were the person's, no keys but the legal
moves.  Each run is bounded (a few hundred steps) and cheap: a second or two.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from netkit import running_server
from witness import Witness

from mantis.base.clock import ManualClock
from mantis.engine import SeatInfo
from mantis.follow.preferences import Preferences
from mantis.home import Settings
from mantis.lines.console import Console
from mantis.lines.live_table import LiveTable
from mantis.lines.local import LocalGames, Start
from mantis.lines.online import OnlineGames
from mantis.lines.replay import Replay
from mantis.net import protocol
from mantis.net.client import take_seat
from mantis.table.seating import seats_from_text

#: What the monkey types: every command the line mode has, in each of its forms, and some
#: that are no command at all.
EVERY = (
    "s", "score", "1", "2", "3", "4", "9", "steal", "steal 2", "",
    "m", "more", "more on", "more off", "o", "odds", "odds on", "odds off",
    "c", "coach", "coach on", "coach off", "brief on", "brief off", "brief", "bell on",
    "bell off", "l", "look", "look 2", "look 9", "scores", "log", "log 2", "log 0", "last",
    "p", "n", "speed", "speed instant", "speed slow", "speed nope", "h", "help",
    "xyzzy", "r", "a", "d", "y", "yes", "no", "b", "back", "leave", "clock",
    "start", "bot", "open", "remove 9", "talk hi", "ping", "who", "v", "e",
)  # fmt: skip
#: What the monkey types, the questions of where the game stands more often than the rest
#: (a card being turned lasts a moment: they are asked in it too, whatever the seed).
TYPED = EVERY + ("m", "o", "c", "look", "", "s") * 4
#: The clock's steps: within a bot's thinking, a card's linger, and past both.
STEPS = (0.05, 0.2, 0.5, 0.7, 1.5)


class Typist:
    """Lines typed into the console's input (a pipe), as a person types them."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.source = open(read, encoding="utf-8")  # noqa: SIM115 (closed by close())
        self._typed = open(write, "w", encoding="utf-8")  # noqa: SIM115

    def type(self, line: str) -> None:
        self._typed.write(line + "\n")
        self._typed.flush()

    def close(self) -> None:
        self._typed.close()


async def monkey(
    rng: random.Random,
    typist: Typist,
    clock: ManualClock,
    done: asyncio.Future[object],
    witness: Witness,
    *,
    steps: int,
    commands: Sequence[str] = TYPED,
) -> None:
    """Type ``commands`` and move ``clock`` on at random, ``steps`` times or until ``done``.

    A line typed is answered before the clock moves on (within a bound: some answers are
    silent), so the state it was typed in is the one it is answered in, however busy the
    machine is.
    """
    for _ in range(steps):
        if done.done():
            return
        if rng.random() < 0.45:
            written = len(witness.pieces)
            typist.type(rng.choice(commands))
            for _ in range(200):
                if len(witness.pieces) > written or done.done():
                    break
                await asyncio.sleep(0.002)
        else:
            clock.advance(rng.choice(STEPS))
        # A moment for the line to be read and for the table to move (its bots think in
        # threads): how long does not matter, only that everything runs in between.
        await asyncio.sleep(rng.choice((0, 0, 0.001, 0.005)))


async def finish(typist: Typist, clock: ManualClock, done: asyncio.Future[object]) -> object:
    """Quit, whatever the state (a question of seats or of leaving asks first), and wait for
    the run to end; its result."""
    for line in ("q", "", "q", "q"):
        if done.done():
            break
        typist.type(line)
        clock.advance(2)
        await asyncio.wait({done}, timeout=1)
    return await asyncio.wait_for(done, 60)


async def run_monkey(
    rng: random.Random,
    typist: Typist,
    clock: ManualClock,
    done: asyncio.Future[object],
    witness: Witness,
    *,
    steps: int,
) -> object:
    """The monkey, then quitting; the run's result (its input closed whatever happens)."""
    try:
        await monkey(rng, typist, clock, done, witness, steps=steps)
        return await finish(typist, clock, done)
    finally:
        typist.close()


def following(games: LocalGames | OnlineGames | None) -> LiveTable | None:
    """The table whose lines are said now: a replay's while one is said, else the game's."""
    if games is None:
        return None
    return games.replaying.live if games.replaying is not None else games.live


def assert_truthful(witness: Witness) -> None:
    assert witness.faults == [], "\n".join(witness.faults) + "\n\n" + witness.text[-3000:]
    assert "Traceback" not in witness.text


@pytest.mark.parametrize("seed", [1, 2])
async def test_a_game_here_says_nothing_untrue_whatever_is_typed_whenever(seed: int) -> None:
    rng = random.Random(seed)
    clock = ManualClock(frozen=True)
    typist = Typist()
    games: LocalGames | None = None
    witness = Witness(lambda: following(games))
    console = Console(out=witness, source=typist.source)  # type: ignore[arg-type]
    prefs = Preferences(Settings(speed="normal"))
    games = LocalGames(console, prefs, clock=clock)
    seats = seats_from_text("human,greedy,random,score")
    done = asyncio.ensure_future(games.run(Start(seats, seed=seed)))
    assert await run_monkey(rng, typist, clock, done, witness, steps=300) == 0
    assert_truthful(witness)
    # The monkey met the states it was sent for.
    said = witness.text
    assert "card is being turned" in said
    assert "Not your turn" in said
    assert "Odds for you" in said or "Coach:" in said


async def test_an_online_game_says_nothing_untrue_whatever_is_typed_whenever(
    tmp_path: Path,
) -> None:
    rng = random.Random(7)
    clock = ManualClock(frozen=True)
    typist = Typist()
    games: OnlineGames | None = None
    witness = Witness(lambda: following(games))
    console = Console(out=witness, source=typist.source)  # type: ignore[arg-type]
    async with running_server(tmp_path) as (_, url):
        connection = await take_seat(
            url, protocol.Create(protocol.PROTOCOL_VERSION, "Ann", ("human", "greedy", "random"))
        )
        games = OnlineGames(console, Preferences(Settings(speed="normal")), connection, clock=clock)
        done = asyncio.ensure_future(games.run())
        try:
            typist.type("start")
            await monkey(rng, typist, clock, done, witness, steps=300)
            await finish(typist, clock, done)
        finally:
            typist.close()
            if not done.done():
                done.cancel()
    assert_truthful(witness)
    said = witness.text
    assert "New game: 3 players" in said
    assert "Not your turn" in said


async def test_a_replay_says_nothing_untrue_whatever_is_typed_whenever() -> None:
    from mantis.engine.record import record_of
    from mantis.players import bot_factory
    from mantis.sim.runner import play_game

    seats = [SeatInfo(name, "bot", "greedy") for name in ("Ann", "Bea", "Cal")]
    record = record_of(play_game([bot_factory("greedy")() for _ in seats], 5), seats)
    rng = random.Random(3)
    clock = ManualClock(frozen=True)
    typist = Typist()
    said: Replay | None = None
    witness = Witness(lambda: said.live if said is not None else None)
    console = Console(out=witness, source=typist.source)  # type: ignore[arg-type]
    prefs = Preferences(Settings(speed="normal"), saving=False)
    said = Replay(console, prefs, record, clock=clock)
    done = asyncio.ensure_future(said.run())
    assert await run_monkey(rng, typist, clock, done, witness, steps=300) == 0
    assert_truthful(witness)
    text = witness.text
    # No seat is anyone's here: no turn of yours, no odds for you.
    assert "Your turn" not in text and "Odds for you" not in text
    assert "card is being turned" in text


def test_every_command_of_the_help_is_among_what_the_monkey_types() -> None:
    from mantis.lines.commands import ALIASES, WORDS

    typed = {line.split(" ", 1)[0] for line in EVERY if line}
    missing = {word for word in WORDS if word not in typed and word not in ("quit", "new")}
    missing -= {word for letter, word in ALIASES.items() if letter in typed}
    assert missing == set()
