"""Asking a seat for its action without ever blocking the caller's event loop.

A bot's decision runs in a daemon thread that the caller awaits with a time
budget.  A bot that raises, answers with an illegal action or runs past its
budget is abandoned (a daemon thread never keeps the process alive) and its
seat scores instead — always legal — with the fault reported so the log can
say so.

One seat, one mind at a time: while a bot's abandoned decision is still
running, that bot is not asked again — its turn is a fault at once — so a
hung bot holds one thread however many turns it misses, and no bot ever has
two ``choose`` calls running at once.

A seat that answers from input rather than by thinking (a person at this
keyboard, a person over the network) offers ``async choose_async(view)``:
it is awaited on the caller's loop and holds no thread while it waits.  A
person may have a time budget too (an online table's turn clock): running
past it is no fault of a program, so the ``Decision`` says ``timed_out`` and
the caller decides who plays instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import cast

from ..base.clock import SYSTEM_CLOCK, Clock, within
from ..engine import SCORE, Action, View
from .protocol import InputPlayer, Player, answers_from_input

DEFAULT_BOT_TIMEOUT = 5.0
"""Seconds a bot may think before its seat scores instead, unless a table is told otherwise."""

BUSY = "was still thinking about an earlier move"
"""The fault of a bot asked while an abandoned decision of its own still runs."""

_busy_lock = threading.Lock()
_busy: dict[int, object] = {}
"""Bots with a decision running, by id (the value keeps the bot alive meanwhile)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What a seat will play; ``fault`` says why it was replaced by a score."""

    action: Action
    fault: str | None = None
    timed_out: bool = False
    """The seat ran past its time budget (``fault`` says so too)."""


async def decide(
    player: Player | InputPlayer,
    view: View,
    timeout: float | None,
    clock: Clock = SYSTEM_CLOCK,
) -> Decision:
    """Ask ``player`` for its action on ``view``.

    ``timeout`` is the budget in seconds on ``clock`` (``None``: wait as long
    as it takes).
    Never raises for the player's faults: they come back as a scoring
    ``Decision`` with ``fault`` set.  Cancelling the caller abandons the
    question (a bot's thread finishes on its own).
    """
    try:
        if answers_from_input(player):
            action = await _within(player.choose_async(view), timeout, clock)
        else:
            # (Not an ``InputPlayer``, so a ``Player``: a ``TypeGuard`` narrows one way only.)
            action = await _in_thread(cast(Player, player), view, timeout, clock)
    except _Busy:
        return Decision(SCORE, BUSY)
    except TimeoutError:
        return Decision(SCORE, f"took longer than {timeout:g} s", timed_out=True)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        return Decision(SCORE, f"failed ({type(exc).__name__}: {exc})")
    if action not in view.legal_actions():
        return Decision(SCORE, f"chose an illegal action ({action!r})")
    return Decision(action)


async def _within(awaitable: Awaitable[Action], timeout: float | None, clock: Clock) -> Action:
    """``awaitable``'s action, or ``TimeoutError`` after ``timeout`` (None: no limit)."""
    if timeout is None:
        return await awaitable
    return await within(clock, timeout, awaitable)


class _Busy(Exception):
    """The bot is still running an earlier decision."""


async def _in_thread(player: Player, view: View, timeout: float | None, clock: Clock) -> Action:
    key = id(player)
    with _busy_lock:
        if key in _busy:
            raise _Busy
        _busy[key] = player
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Action] = loop.create_future()

    def settle(result: Action | None, error: BaseException | None) -> None:
        if future.done():
            return  # abandoned after a timeout
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        result: Action | None = None
        error: BaseException | None = None
        try:
            result = player.choose(view)
        except BaseException as exc:  # the bot's fault, reported, never raised here
            error = exc
        finally:
            # Free before reporting, so the seat's next turn may ask at once.
            with _busy_lock:
                _busy.pop(key, None)
        # The loop may have closed while an abandoned bot was still thinking.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name=f"seat-{view.seat}", daemon=True).start()
    try:
        return await _within(asyncio.shield(future), timeout, clock)
    finally:
        future.cancel()
