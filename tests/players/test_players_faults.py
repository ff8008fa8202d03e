"""A bot that raises, hangs or cheats at the table scores instead, with a fault.

Budgets run on a ``ManualClock`` that stands still unless a test moves it:
a bot's answer never comes too late because the machine is slow, and a hung
one is given up the moment its time is moved past.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, Game, steal
from mantis.players.decision import Decision, decide

RELEASE = threading.Event()


class RaisingBot:
    def choose(self, view):
        raise RuntimeError("boom")


class HangingBot:
    def choose(self, view):
        RELEASE.wait(30)  # released at the end of the test; a daemon thread anyway
        return SCORE


class CheatingBot:
    def choose(self, view):
        return steal(view.seat)


def test_raising_bot_scores_with_a_fault() -> None:
    view = Game.new(2, 1).view()
    decision = asyncio.run(decide(RaisingBot(), view, 1.0, ManualClock(frozen=True)))
    assert decision.action == SCORE
    assert (
        decision.fault is not None and "RuntimeError" in decision.fault and "boom" in decision.fault
    )


def test_hanging_bot_is_abandoned_promptly() -> None:
    view = Game.new(3, 2).view()

    async def run() -> Decision:
        clock = ManualClock(frozen=True)
        asked = asyncio.ensure_future(decide(HangingBot(), view, 0.1, clock))
        await clock.until_pending(0.1)
        clock.advance(0.1)
        return await asyncio.wait_for(asked, 30)

    # decide() returns while the bot is still stuck (RELEASE is set only
    # afterwards): the hung decision was abandoned, not waited for.
    try:
        decision = asyncio.run(run())
    finally:
        RELEASE.set()
    assert decision.action == SCORE
    assert decision.fault is not None and "0.1" in decision.fault


def test_illegal_answer_scores_with_a_fault() -> None:
    view = Game.new(2, 3).view()
    decision = asyncio.run(decide(CheatingBot(), view, 1.0, ManualClock(frozen=True)))
    assert decision.action == SCORE and "illegal" in (decision.fault or "")


def test_faulty_bots_through_a_whole_game() -> None:
    async def run() -> tuple[Game, list[str]]:
        game = Game.new(3, 4)
        seats = [RaisingBot(), CheatingBot(), RaisingBot()]
        clock = ManualClock(frozen=True)
        faults = []
        while not game.over:
            decision = await decide(seats[game.to_move], game.view(), 1.0, clock)
            faults.append(decision.fault)
            game.apply(decision.action)
        return game, faults

    game, faults = asyncio.run(run())
    assert game.over and all(faults)
    assert all(action == SCORE for _, action in game.history)


def test_a_hung_bot_does_not_block_exit() -> None:
    code = """
import asyncio, time
from mantis.engine import Game, SCORE
from mantis.base.clock import ManualClock
from mantis.players.decision import Decision, decide
class Hang:
    def choose(self, view):
        time.sleep(3600)
        return SCORE
async def run():
    clock = ManualClock(frozen=True)
    asked = asyncio.ensure_future(decide(Hang(), Game.new(2, 1).view(), 0.1, clock))
    await clock.until_pending(0.1)
    clock.advance(0.1)
    return await asked
print(asyncio.run(run()).fault)
"""
    # The bot sleeps for an hour: if its thread kept the interpreter alive,
    # the run would hit the subprocess timeout and fail.  (That bound is real
    # time, a whole interpreter's start and exit: generous, for a slow machine.)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "took longer" in done.stdout


class Silent:
    """A seat that answers from input, and never does."""

    async def choose_async(self, view):
        await asyncio.Event().wait()


class Stuck:
    """A bot that thinks until the test lets it go."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def choose(self, view):
        self.release.wait(30)
        return SCORE


def test_the_budget_runs_on_the_clock_it_is_handed() -> None:
    # No real time passes: the budget is spent on a test's clock, for a thinking
    # bot and for a seat waiting on input alike.
    async def run(player):
        clock = ManualClock(frozen=True)
        asked = asyncio.ensure_future(decide(player, Game.new(2, 1).view(), 10, clock))
        await clock.until_pending(10)
        clock.advance(9.5)
        for _ in range(10):
            await asyncio.sleep(0)
        early = asked.done()
        clock.advance(0.5)
        return early, await asyncio.wait_for(asked, 30)

    stuck = Stuck()
    try:
        for player in (stuck, Silent()):
            early, decision = asyncio.run(run(player))
            assert not early
            assert decision == Decision(SCORE, "took longer than 10 s", timed_out=True)
    finally:
        stuck.release.set()
