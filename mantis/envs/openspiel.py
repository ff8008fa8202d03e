"""OpenSpiel's ``python_mantis``: Mantis with explicit chance nodes.

    import pyspiel
    import mantis.envs.openspiel  # registers the game
    game = pyspiel.load_game("python_mantis", {"players": 4})

Mantis is a game of perfect information with chance: every tank and score
pile is public and every card is distinct, and what nobody knows is the
order of the draw pile.  So, as backgammon's dice, the pile is chance decided
card by card, each outcome with its exact probability:

1. the deal: one chance node per dealt card (seat 0's four cards, then seat
   1's...), uniform over the cards not dealt yet, then one for the first
   seat, uniform over the seats;
2. every turn: the top card's *back*, before the move (a back with ``u``
   unseen cards among ``U`` unseen in all has probability ``u / U``); the
   move; then the card's *face*, after the move (uniform over the unseen
   cards with that back).  Back then face give every unseen card ``1 / U``:
   exactly a uniformly shuffled pile, revealed one card at a time.

Chance outcomes are numbered apart from each other so that a history reads
without its states: ``0``-``104`` a card (dealt, or the face turned),
``105``-``139`` a back, ``140``-``145`` the first seat.  Moves are the
environments' action numbers (``actions.py``: 0 scores, ``k`` steals from
the seat ``k`` places on).

The rules are the engine's: the state holds a ``Game``, puts the card chance
picked on top of its pile (``Game.put_on_top``) and plays the move there.
A seeded engine game (``Game.new(players, seed)``) is one sample of this
process: its deal, first seat and pile order are one sequence of outcomes
(``state_from_record`` follows a recorded game into a state).

Returns: each seat's share of the win (1, ``1/k`` for a win shared by ``k``,
0 for a loss), so they sum to 1 (``CONSTANT_SUM``).  The observation tensor
is ``observation.py``'s layout from the observer's seat, then six entries:
the move waiting for its face, one-hot, numbered from the mover.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec
import numpy as np
import pyspiel

from ..engine import BACK, Game, GameRecord, View, card_code, target_for
from ..engine.cards import (
    ALL_CARDS_MASK,
    BIT,
    FACE,
    NUM_BACKS,
    NUM_CARDS,
    NUM_COLOURS,
    back_code,
)
from ..engine.deal import HAND_SIZE
from ..engine.seat_count import MAX_SEATS, MIN_SEATS, SEAT_RANGE, valid_seat_count
from ..players import Player
from .actions import NUM_ACTIONS, from_engine, name, to_engine
from .observation import SIZE, Encoder
from .policies import BotPolicy
from .render import table_text
from .rewards import win_shares

SHORT_NAME = "python_mantis"
FIRST_BACK = NUM_CARDS
"""Chance outcome of back ``b``: ``FIRST_BACK + b``."""
FIRST_SEAT = FIRST_BACK + NUM_BACKS
"""Chance outcome "seat ``s`` starts": ``FIRST_SEAT + s``."""
NUM_OUTCOMES = FIRST_SEAT + MAX_SEATS
#: Unseen cards of a back from the back's three bits of the seen mask.
_FREE = (3, 2, 2, 1, 2, 1, 1, 0)
_NO_MOVE = -1

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Mantis",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_SEATS,
    min_num_players=MIN_SEATS,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": MIN_SEATS},
)


def pile_at_deal(players: int) -> int:
    """Cards in the draw pile once ``players`` seats are dealt."""
    return NUM_CARDS - HAND_SIZE * players


class MantisGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """Mantis for ``players`` seats (the one parameter, 2 to 6)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.get("players", MIN_SEATS)
        if type(players) is not int or not valid_seat_count(players):
            raise ValueError(f"Mantis is played by {SEAT_RANGE} players, not {players!r}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            # every move draws a card: at most the pile's size of moves
            max_game_length=pile_at_deal(players),
        )
        super().__init__(GAME_TYPE, info, {"players": players})
        self.players = players

    def new_initial_state(self) -> MantisState:
        """The state before the deal."""
        return MantisState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MantisObserver:
        """The observer (the game is of perfect information: every type sees it all)."""
        return MantisObserver(params)

    def max_chance_nodes_in_history(self) -> int:
        """The deal, the first seat, and a back and a face per move."""
        return HAND_SIZE * self.players + 1 + 2 * pile_at_deal(self.players)


_BACK_SHIFTS = tuple(3 * back for back in range(NUM_BACKS))
"""Where each back's three cards are in the seen mask."""
_BACK_OUTCOMES = tuple(FIRST_BACK + back for back in range(NUM_BACKS))
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


@lru_cache(maxsize=1 << 14)
def _back_outcomes(seen: int) -> tuple[tuple[int, float], ...]:
    """The top card's back's outcomes when ``seen`` cards have been seen (a search
    asks the same node's outcomes each time it passes: they are kept)."""
    total = (ALL_CARDS_MASK ^ seen).bit_count()
    unseen = [_FREE[seen >> shift & 7] for shift in _BACK_SHIFTS]
    pairs = zip(_BACK_OUTCOMES, unseen, strict=True)
    return tuple((outcome, u / total) for outcome, u in pairs if u)


class _Position:
    """What a state holds, as one value: OpenSpiel clones a Python state by
    deep-copying each of its attributes, so one attribute that copies itself
    in one call (the engine's ``Game`` copies itself cheaply) is the cheapest
    clone there is."""

    __slots__ = ("players", "dealt", "game", "back", "pending", "player")

    def __init__(self, players: int) -> None:
        self.players = players
        self.dealt: list[int] = []
        self.game: Game | None = None
        self.back = _NO_MOVE
        self.pending = _NO_MOVE
        self.player = _CHANCE
        """Who acts now: a seat, chance or (the game over) terminal."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        other = _Position.__new__(_Position)
        other.players = self.players
        other.dealt = self.dealt.copy()
        other.game = None if self.game is None else self.game.copy()
        other.back = self.back
        other.pending = self.pending
        other.player = self.player
        return other


class MantisState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A position: the deal in progress, or the engine's game with what chance has drawn.

    Everything it holds is one attribute, ``_at`` (see ``_Position``).
    """

    def __init__(self, game: MantisGame) -> None:
        super().__init__(game)
        self._at = _Position(game.players)

    # ------------------------------------------------------------------ reading

    @property
    def engine_game(self) -> Game | None:
        """The engine's game once the deal is done (its pile's order beyond the top is
        not decided: chance decides it card by card)."""
        return self._at.game

    def current_player(self) -> int:
        return self._at.player

    def is_terminal(self) -> bool:
        return self._at.player == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(self._at.players))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every outcome of this chance node with its exact probability."""
        at = self._at
        game = at.game
        if game is None:
            dealt = at.dealt
            if len(dealt) < HAND_SIZE * at.players:
                left = [c for c in range(NUM_CARDS) if c not in dealt]
                p = 1.0 / len(left)
                return [(card, p) for card in left]
            return [(FIRST_SEAT + seat, 1.0 / at.players) for seat in range(at.players)]
        seen = game.view().seen
        if at.pending == _NO_MOVE:
            return list(_back_outcomes(seen))
        back = at.back
        cards = [back * 3 + k for k in range(3) if not seen & BIT[back * 3 + k]]
        p = 1.0 / len(cards)
        return [(card, p) for card in cards]

    def returns(self) -> list[float]:
        game = self._at.game
        if game is None or game.winners is None:
            return [0.0] * self._at.players
        return win_shares(game.winners, self._at.players)

    # ------------------------------------------------------------------ playing

    def _apply_action(self, action: int) -> None:
        at = self._at
        game = at.game
        if game is None:
            self._deal(action)
        elif at.back == _NO_MOVE:
            back = action - FIRST_BACK
            if not 0 <= back < NUM_BACKS:
                raise ValueError(f"{action} is not a back's chance outcome")
            seen = game.view().seen
            unseen = [back * 3 + k for k in range(3) if not seen & BIT[back * 3 + k]]
            if not unseen:
                raise ValueError(f"no unseen card has the back {back_code(back)}")
            game.put_on_top(unseen[0])  # its face is chance's, after the move
            at.back = back
            at.player = game.to_move
        elif at.pending == _NO_MOVE:
            to_engine(at.players, game.to_move, action)  # checks it is a move here
            at.pending = action
            at.player = _CHANCE
        else:
            if not 0 <= action < NUM_CARDS or BACK[action] != at.back:
                raise ValueError(f"{action} is not a face of the back {back_code(at.back)}")
            game.put_on_top(action)
            game.play(to_engine(at.players, game.to_move, at.pending))
            at.back = at.pending = _NO_MOVE
            at.player = _CHANCE if game.winners is None else _TERMINAL

    def _deal(self, action: int) -> None:
        at = self._at
        dealt = at.dealt
        players = at.players
        if len(dealt) < HAND_SIZE * players:
            if not 0 <= action < NUM_CARDS or action in dealt:
                raise ValueError(f"{action} is not a card still to deal")
            dealt.append(action)
            return
        first = action - FIRST_SEAT
        if not 0 <= first < players:
            raise ValueError(f"{action} is not a first seat's chance outcome")
        tanks = [dealt[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(players)]
        pile = [c for c in range(NUM_CARDS) if c not in dealt]
        at.game = Game(tanks, pile, first)

    # ------------------------------------------------------------------ showing

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return outcome_name(action)
        return name(action)

    def view(self) -> View:
        """The public position (during the deal, the cards dealt so far); the top
        card's back is shown only once chance has drawn it."""
        at = self._at
        game = at.game
        if game is None:
            return _deal_view(at.dealt, at.players)
        view = game.view()
        if at.back == _NO_MOVE and view.top_back is not None:
            view = msgspec.structs.replace(view, top_back=None)
        return view

    @property
    def pending_move(self) -> int | None:
        """The move waiting for its card's face (``None`` at other nodes)."""
        pending = self._at.pending
        return None if pending == _NO_MOVE else pending

    def __str__(self) -> str:
        at = self._at
        if at.game is None:
            return f"dealing: {len(at.dealt)} of {HAND_SIZE * at.players} cards dealt"
        names = [f"player {s}" for s in range(at.players)]
        text = table_text(self.view(), names)
        if at.pending != _NO_MOVE:
            mover = names[at.game.to_move]
            text += f"\n{mover} played {name(at.pending)}; the card's face is to be turned"
        return text


def outcome_name(outcome: int) -> str:
    """A chance outcome in words: ``card R:RGB``, ``back RGB``, ``seat 2 starts``."""
    if 0 <= outcome < FIRST_BACK:
        return f"card {card_code(outcome)}"
    if outcome < FIRST_SEAT:
        return f"back {back_code(outcome - FIRST_BACK)}"
    return f"seat {outcome - FIRST_SEAT} starts"


def _deal_view(dealt: list[int], players: int) -> View:
    tanks: list[list[tuple[int, ...]]] = [[() for _ in range(NUM_COLOURS)] for _ in range(players)]
    for i, card in enumerate(dealt):
        tank = tanks[i // HAND_SIZE]
        tank[FACE[card]] += (card,)
    seen = 0
    for card in dealt:
        seen |= BIT[card]
    return View(
        seat=0,
        players=players,
        target=target_for(players),
        to_move=0,
        tanks=tuple(tuple(tank) for tank in tanks),
        scores=(0,) * players,
        pile_size=NUM_CARDS - len(dealt),
        top_back=None,
        seen=seen,
        extra_turn=False,
        turn=0,
        winners=None,
        reason=None,
    )


class MantisObserver:
    """The observation of a state from a seat: the public position and the pending move."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        self.tensor = np.zeros(SIZE + NUM_ACTIONS, np.float32)
        self.dict = {"public": self.tensor[:SIZE], "pending": self.tensor[SIZE:]}
        self._encode = Encoder().encode

    def set_from(self, state: MantisState, player: int) -> None:
        """Fill ``tensor`` with ``state`` seen from ``player``."""
        self.tensor[:SIZE] = self._encode(state.view(), player)
        pending = self.dict["pending"]
        pending.fill(0)
        move = state.pending_move
        if move is not None:
            pending[move] = 1

    def string_from(self, state: MantisState, player: int) -> str:
        """The table as text, for ``player``."""
        return f"player {player} observing\n{state}"


def state_from_record(game: pyspiel.Game, record: GameRecord) -> MantisState:
    """The state of a recorded engine game after its moves, its cards drawn as recorded.

    The deal and every card drawn become the chance outcomes they are in
    this model; the rest of the pile is left to chance.  ``game`` must be
    ``python_mantis`` for the record's number of players.
    """
    if game.num_players() != record.players:
        raise ValueError(f"a record of {record.players} players, a game of {game.num_players()}")
    state: MantisState = game.new_initial_state()
    for tank in record.tanks:
        for card in tank:
            state.apply_action(card)
    state.apply_action(FIRST_SEAT + record.first)
    for turn, (seat, action) in enumerate(record.actions):
        card = record.pile[turn]
        state.apply_action(FIRST_BACK + BACK[card])
        state.apply_action(from_engine(record.players, seat, action))
        state.apply_action(card)
    return state


class PolicyBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel has no type information
    """A ``BotPolicy`` as OpenSpiel's ``pyspiel.Bot`` for ``player_id`` of ``python_mantis``."""

    def __init__(self, player_id: int, bot: str | Player = "expert", *, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        self._player_id = player_id
        self.policy = BotPolicy(bot, seat=player_id, seed=seed)

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: every decision reads the position afresh."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to follow: the next decision reads the position afresh."""

    def provides_policy(self) -> bool:
        return False

    def step(self, state: Any) -> int:
        """The bot's action in ``state`` (its player to move)."""
        return self.policy(state.observation_tensor(self._player_id))


pyspiel.register_game(GAME_TYPE, MantisGame)

__all__ = [
    "FIRST_BACK",
    "FIRST_SEAT",
    "GAME_TYPE",
    "MantisGame",
    "MantisObserver",
    "MantisState",
    "PolicyBot",
    "SHORT_NAME",
    "outcome_name",
    "state_from_record",
]
