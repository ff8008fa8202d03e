"""Asking seats for actions without ever blocking the caller's event loop.

Each decision runs in its own daemon thread.  The caller awaits it with a
time budget; a bot that raises, answers with an illegal action or runs past
its budget is abandoned (a daemon thread never keeps the process alive) and
its seat scores instead — always legal — with the fault reported so the log
can say so.  Human seats have no budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass

from ..engine import SCORE, Action, View
from .protocol import Player

DEFAULT_BOT_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class Decision:
    """What a seat will play; ``fault`` says why it was replaced by a score."""

    action: Action
    fault: str | None = None


async def decide(player: Player, view: View, timeout: float | None) -> Decision:
    """Ask ``player`` for its action on ``view`` in a daemon thread.

    ``timeout`` is the budget in seconds (``None``: wait as long as it takes).
    Never raises for the player's faults: they come back as a scoring
    ``Decision`` with ``fault`` set.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Action] = loop.create_future()

    def settle(result: Action | None, error: BaseException | None) -> None:
        if future.done():
            return  # abandoned after a timeout
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def report(result: Action | None, error: BaseException | None) -> None:
        # the loop may have closed while an abandoned bot was still thinking
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, result, error)

    def run() -> None:
        try:
            action = player.choose(view)
        except BaseException as exc:  # the bot's fault, reported, never raised here
            report(None, exc)
        else:
            report(action, None)

    threading.Thread(target=run, name=f"seat-{view.seat}", daemon=True).start()
    try:
        action = await asyncio.wait_for(asyncio.shield(future), timeout)
    except TimeoutError:
        future.cancel()
        return Decision(SCORE, f"took longer than {timeout:g} s")
    except asyncio.CancelledError:
        future.cancel()
        raise
    except Exception as exc:
        return Decision(SCORE, f"failed ({type(exc).__name__}: {exc})")
    if action not in view.legal_actions():
        return Decision(SCORE, f"chose an illegal action ({action!r})")
    return Decision(action)
