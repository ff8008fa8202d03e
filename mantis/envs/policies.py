"""The project's bots as baselines that play from observations: ``policy(observation) -> action``.

    from mantis.envs import BotPolicy
    expert = BotPolicy("expert", seat=1)
    action = expert(observation)  # seat 1's observation, its turn

A ``BotPolicy`` takes any bot level (``random``, ``score``, ``casual``,
``greedy``, ``expert``), a plug-in bot (``package.module:Class``) or an
object with ``choose(view)``, and answers an observation of any of the
environments (PettingZoo's dict, ``Mantis-v0``'s vector or dict, scaled or
not, OpenSpiel's tensor) with the action number the bot chooses there.  It
rebuilds the observing seat's ``View`` from the observation alone
(``observation.view_of``) and asks the bot's own decision, ``choose(view)``:
nothing reaches into an environment's game.  ``BotPolicy.bot`` is the
underlying bot.

``mantis.envs.openspiel.PolicyBot`` is the same for OpenSpiel: a
``pyspiel.Bot`` (for ``evaluate_bots`` and the like) that reads
``state.observation_tensor`` of its player.

Bots that draw randomness (``casual``'s noise, ``random``'s moves) draw it
from their own generator: ``new_game(seed, seat)`` gives them the one
``mantis simulate`` gives that seat in the game dealt from ``seed``.
"""

from __future__ import annotations

from typing import Any

from ..engine import bot_rng
from ..players import Player, bot_factory, is_player
from .actions import from_engine
from .observation import view_of


class BotPolicy:
    """A bot as a policy over observations: ``policy(observation) -> action``.

    ``seat``: the seat it plays (default 0, ``Mantis-v0``'s learner; in
    PettingZoo, ``player_k`` is seat ``k``).  The observation lists seats
    from the observer and does not say where the table starts; bots break
    ties between seats, and draw their noise, in the table's order, so the
    policy numbers the seats as the table does to choose what the bot
    would.
    """

    def __init__(
        self, bot: str | Player = "expert", *, seat: int = 0, seed: int | None = None
    ) -> None:
        self.seat = seat
        if isinstance(bot, str):
            bot = bot_factory(bot)()
        elif not is_player(bot):
            raise ValueError(f"a policy's bot is a bot level or has choose(view), not {bot!r}")
        self.bot: Player = bot
        if seed is not None:
            self.new_game(seed)

    def new_game(self, seed: int) -> None:
        """Seed the bot for a new game as ``mantis simulate`` seeds its seat in ``seed``'s deal."""
        new_game = getattr(self.bot, "new_game", None)
        if new_game is not None:
            new_game(self.seat, bot_rng(seed, self.seat))

    def __call__(self, observation: Any) -> int:
        """The action the bot chooses in the observed position, the observer to move.

        ``ValueError`` in one line when the observation shows another seat to
        move, or a game that is over.
        """
        seat = self.seat
        view = view_of(observation, seat)
        if view.winners is not None:
            raise ValueError("the game is over: there is no action to choose")
        if view.to_move != seat:
            raise ValueError(
                f"it is not the observing seat's turn (seat {view.to_move} is to move)"
            )
        return from_engine(view.players, seat, self.bot.choose(view))


__all__ = ["BotPolicy"]
