"""The pacing gate on its own: a live stream let through at a person's pace, on a test's clock.

No app and no real time: the gate is plain asyncio, and the clock moves only
when the test says so, so each delay is checked by what is let through
before and after it.
"""

from __future__ import annotations

import asyncio

from mantis.base.clock import ManualClock
from mantis.engine import SCORE, CardRevealed, TurnStarted
from mantis.table.pacing import Pace, PacingGate

BOT, PERSON = 1, 0
PACE = Pace(think=0.5, reveal=0.75)  # sums of halves and quarters are exact


def gate(
    clock: ManualClock,
    *,
    free: bool = False,
    paused: bool = False,
    can_hold: bool = True,
    on_hold=lambda: None,
):
    shown = PacingGate(
        frozenset({PERSON}),
        pace=lambda: PACE,
        free=lambda: free,
        clock=clock,
        can_hold=can_hold,
        paused=paused,
        on_hold=on_hold,
    )
    shown.uncover()
    return shown


def reveal(seat: int) -> CardRevealed:
    return CardRevealed(seat, SCORE, 3, seat)


async def settle() -> None:
    """Let every task that can run, run (a handful of loop turns)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_a_bots_card_waits_for_its_thinking_time_then_lingers() -> None:
    clock = ManualClock(frozen=True)
    pacing = gate(clock)
    pacing.turn_shown()
    turn = TurnStarted(BOT, 0, 90, 4)
    pacing.feed(turn)
    pacing.feed(reveal(BOT))
    pacing.feed(turn)
    assert await pacing.next() is turn  # anything but a card goes at once
    card = asyncio.ensure_future(pacing.next())
    await settle()
    clock.advance(0.25)
    await settle()
    assert not card.done()  # thought for 0.25 s of 0.5
    clock.advance(0.25)
    await settle()
    assert card.done() and card.result() == reveal(BOT)
    after = asyncio.ensure_future(pacing.next())
    ready = asyncio.ensure_future(pacing.ready())
    await settle()
    clock.advance(0.5)
    await settle()
    assert not after.done() and not ready.done()  # the card lingers 0.75 s: nothing yet
    clock.advance(0.25)
    await settle()
    assert after.done()
    assert not ready.done()  # the table waits until everything fed is let through
    following = asyncio.ensure_future(pacing.next())
    await settle()
    assert ready.done()
    following.cancel()


async def test_a_person_here_plays_without_thinking_time_and_a_covered_board_holds_all() -> None:
    clock = ManualClock(frozen=True)
    pacing = gate(clock)
    pacing.cover()
    pacing.feed(reveal(PERSON))
    card = asyncio.ensure_future(pacing.next())
    await settle()
    assert not card.done()  # help or settings cover the board
    pacing.uncover()
    await settle()
    assert card.done()  # a person's own card: no thinking time
    assert clock.pending(1e9) == 0


async def test_a_pause_holds_a_bots_turn_until_a_step_and_never_a_persons() -> None:
    clock = ManualClock(frozen=True)
    holds = []
    pacing = gate(clock, paused=True, on_hold=lambda: holds.append(True))
    ready = asyncio.ensure_future(pacing.ready())
    await settle()
    assert pacing.held and not ready.done() and holds == [True]
    pacing.step()
    await settle()
    assert ready.done() and not pacing.held
    # A step asked for before the table gets there still counts, once.
    pacing.step()
    assert await asyncio.wait_for(pacing.ready(), 5) is None
    again = asyncio.ensure_future(pacing.ready())
    await settle()
    assert not again.done()
    pacing.toggle_pause()  # resumed
    await settle()
    assert again.done() and not pacing.paused
    # A seat played here (or a finished game) is never held by the pause.
    free = gate(clock, free=True, paused=True)
    assert await asyncio.wait_for(free.ready(), 5) is None


async def test_a_table_that_cannot_be_held_is_never_paused() -> None:
    pacing = gate(ManualClock(frozen=True), paused=True, can_hold=False)
    assert not pacing.paused
    pacing.toggle_pause()
    assert not pacing.paused
    assert await asyncio.wait_for(pacing.ready(), 5) is None
