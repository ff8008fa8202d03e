"""The one interface every seat plugs in through.

A ``Player`` is a plain synchronous policy: given its seat's public ``View``
it returns an ``Action``.  The simulator calls ``choose`` directly (no
per-decision overhead); the table (``decision.py``) runs it where the UI's event
loop never waits on it and where a hung bot can be abandoned.  Human seats
implement the same protocol: their ``choose`` waits for the UI to submit.

Optional hook: ``new_game(seat, rng)`` is called before each game with the
seat and the player's own ``random.Random`` (derived from the game seed and
the seat, never the deal's RNG).  Bots that need randomness keep that RNG.
"""

from __future__ import annotations

from typing import Protocol, TypeGuard, runtime_checkable

from ..engine import Action, View


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(view) -> action``."""

    def choose(self, view: View) -> Action:
        """The action to take; ``view.to_move == view.seat`` when asked."""
        ...


@runtime_checkable
class InputPlayer(Protocol):
    """A seat that answers from input rather than by thinking (a person here or online).

    The table awaits ``choose_async`` on its own loop: no thread is held while
    it waits.  A seat with both methods (``HumanPlayer``) is asked this way.
    """

    async def choose_async(self, view: View) -> Action:
        """The action to take, once it is given."""
        ...


def answers_from_input(obj: object) -> TypeGuard[InputPlayer]:
    """True if ``obj`` is an ``InputPlayer`` (a callable ``choose_async``).

    What ``isinstance(obj, InputPlayer)`` says, at a fraction of its cost: a
    table asks before every move, and a protocol's ``isinstance`` walks the
    protocol's attributes each time (about a fiftieth of a busy server's CPU).
    """
    return callable(getattr(obj, "choose_async", None))


def is_player(obj: object) -> bool:
    """True if ``obj`` implements the protocol (a callable ``choose``)."""
    return callable(getattr(obj, "choose", None))
