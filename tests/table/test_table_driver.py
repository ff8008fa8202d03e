"""The table driver run headless: the same game as the engine alone, kept before it is told.

The bots' time budgets run on a ``ManualClock`` that stands still unless a
test moves it: no move runs out of time because the machine is slow.
"""

from __future__ import annotations

import asyncio
import threading

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, Game, SeatInfo, bot_rng, record_of, steal
from mantis.players import HumanPlayer, make_bot
from mantis.players.decision import BUSY
from mantis.table import Fault, KeepFailed, PublicPosition, Recorded, Table, stream_of
from mantis.table.messages import Message

BOT_SEATS = (
    SeatInfo("Ann", "bot", "greedy"),
    SeatInfo("Bea", "bot", "casual"),
    SeatInfo("Cal", "bot", "expert"),
    SeatInfo("Dee", "bot", "random"),
)


def engine_alone(seats, seed: int, choose_for_person=None):
    """The game the engine plays with the same bots (and a person's scripted moves)."""
    game = Game.new(len(seats), seed)
    bots = {}
    for s, seat in enumerate(seats):
        if seat.kind == "bot":
            bots[s] = make_bot(seat.bot)
            hook = getattr(bots[s], "new_game", None)
            if hook is not None:
                hook(s, bot_rng(seed, s))
    events = list(game.opening_events())
    while not game.over:
        seat = game.to_move
        action = bots[seat].choose(game.view()) if seat in bots else choose_for_person(game.view())
        events += game.apply(action)
    return record_of(game, seats), events


class Keeping:
    """A keeper that notes what it was given, and when."""

    def __init__(self, table_messages=None, fail_saves: bool = False) -> None:
        self.saves: list[int] = []
        self.finished: list = []
        self.notes: list = []
        self.fail_saves = fail_saves
        self.published_at_save: list[int] = []
        self.messages = table_messages

    async def save(self, record) -> None:
        if self.messages is not None:
            self.published_at_save.append(len(self.messages))
        self.saves.append(len(record.actions))
        if self.fail_saves:
            raise OSError("No space left on device")

    async def note(self, notice, turn: int) -> None:
        self.notes.append((turn, notice))

    async def finish(self, record) -> None:
        self.finished.append(record)


def table_of(record, players, **options) -> Table:
    """A table whose bots' budgets are on a clock that stands still (none runs out)."""
    return Table(record, players, clock=ManualClock(frozen=True), **options)


def run(table: Table) -> list[Message]:
    heard: list[Message] = []
    table.subscribe(heard.append)
    asyncio.run(table.run())
    return heard


def test_bots_through_the_driver_play_the_engines_game() -> None:
    for players in (2, 3, 4):
        seats = BOT_SEATS[:players]
        record, _ = engine_alone(seats, seed=77 + players)
        dealt = record.from_start()
        keeper = Keeping()
        table = table_of(dealt, [make_bot(s.bot) for s in seats], keeper=keeper)
        heard = run(table)
        assert table.record == record
        assert heard[:-1] == stream_of(record)
        assert heard[-1] == Recorded(record.to_json())
        assert PublicPosition.of(heard).view() == record.replay().view()
        # Kept at once when new, after every move but the last, and recorded at the end.
        assert keeper.saves == list(range(len(record.actions)))
        assert keeper.finished == [record]


def test_bots_and_a_scripted_person_play_the_engines_game() -> None:
    seats = (SeatInfo("You", "human"), *BOT_SEATS[1:3])
    script = [steal(1), SCORE, steal(2), SCORE] * 30

    scripted = iter(script)
    record, events = engine_alone(seats, seed=5, choose_for_person=lambda view: next(scripted))
    you = HumanPlayer()
    table = table_of(record.from_start(), [you, make_bot("casual"), make_bot("expert")])
    moves = iter(list(script))

    def answer(message: Message) -> None:
        # A person who moves when the board shows their turn, as the app does.
        if type(message).__name__ == "TurnStarted" and message.seat == 0:
            you.submit(next(moves))

    table.subscribe(answer)
    heard = run(table)
    assert table.record == record
    assert heard[2:-1] == events[2:]  # every engine event, in order, after the opening


def test_a_table_opened_mid_game_plays_on_as_the_unbroken_game() -> None:
    # Bots that draw on their RNG (random, casual, greedy) and one that does not: after
    # opening at a saved position each must choose as it would have, had the
    # game never stopped, so the rest of the game is the engine's game.
    seats = (BOT_SEATS[3], BOT_SEATS[1], BOT_SEATS[0], BOT_SEATS[2])
    record, _ = engine_alone(seats, seed=36)
    assert len(record.actions) > 30  # a long game: each opening point leaves many moves to play
    for upto in (1, 7, len(record.actions) // 2):
        table = table_of(record, [make_bot(s.bot) for s in seats], upto=upto)
        run(table)
        assert table.record == record, f"opened after {upto} moves"


def test_the_move_is_kept_before_anyone_hears_of_it() -> None:
    seats = BOT_SEATS[:2]
    record, _ = engine_alone(seats, seed=9)
    table = table_of(record.from_start(), [make_bot(s.bot) for s in seats])
    keeper = Keeping(table.messages)
    table.keeper = keeper
    heard = run(table)
    # At each save (before move k's messages), none of move k's messages were out yet.
    reveals = [i for i, m in enumerate(heard) if type(m).__name__ == "CardRevealed"]
    for k, published in enumerate(keeper.published_at_save[1:], start=1):
        assert published <= reveals[k - 1]


def test_a_failing_save_is_reported_once_and_the_game_goes_on() -> None:
    seats = BOT_SEATS[:3]
    record, _ = engine_alone(seats, seed=12)
    keeper = Keeping(fail_saves=True)
    table = table_of(record.from_start(), [make_bot(s.bot) for s in seats], keeper=keeper)
    heard = run(table)
    failures = [m for m in heard if isinstance(m, KeepFailed)]
    assert failures == [KeepFailed("save", "No space left on device")]
    assert table.record == record and keeper.finished == [record]


class Hanging:
    """Thinks until released, counting how many of its decisions run at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.asked = threading.Event()
        self.calls = 0
        self.running = 0
        self.most_at_once = 0
        self.lock = threading.Lock()

    def choose(self, view):
        with self.lock:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        self.asked.set()
        self.release.wait(30)
        with self.lock:
            self.running -= 1
        return SCORE


def test_a_hung_bot_holds_one_thread_however_many_turns_it_misses() -> None:
    hung = Hanging()
    seats = (SeatInfo("Hal", "bot", "hang"), SeatInfo("Sam", "bot", "score"))
    record, _ = engine_alone((SeatInfo("a", "bot", "score"), seats[1]), seed=3)
    clock = ManualClock(frozen=True)
    table = Table(record.from_start(), [hung, make_bot("score")], bot_timeout=5, clock=clock)
    heard: list[Message] = []
    table.subscribe(heard.append)

    async def play() -> None:
        playing = asyncio.ensure_future(table.run())
        # Once the hung bot is asked, its budget is the one time the table waits on.
        assert await asyncio.to_thread(hung.asked.wait, 60)
        await clock.until_pending(5)
        clock.advance(5)
        await playing

    try:
        asyncio.run(play())
        faults = [m for m in heard if isinstance(m, Fault)]
        alive = [t for t in threading.enumerate() if t.name == "seat-0"]
    finally:
        hung.release.set()
    assert len(faults) >= 10 and all(f.seat == 0 for f in faults)
    assert faults[0].reason == "took longer than 5 s"
    assert {f.reason for f in faults[1:]} == {BUSY}
    assert hung.calls == 1 and hung.most_at_once == 1
    assert len(alive) == 1  # one thread, however many turns were missed
