"""Mantis batched: many games of one table size stepped at once, as numpy arrays.

    games = MantisBatch(num_games=1024, num_players=2, seed=0)
    obs = games.observe()              # (1024, 178) uint8: each game from its mover's seat
    mask = games.action_mask()         # (1024, 6) int8
    step = games.step(actions)         # one action per game, every game at once

For self-play at scale: a learner, or a data generator, that wants
thousands of positions a call rather than one.  The rules are the engine's
(``mantis.engine.game``), written again over arrays; the deals are the
engine's own: game ``i`` of a batch seeded ``s`` is ``Game.new(players,
game_seed(s, i))``: the engine's SHAKE-128 digest per seed
(``deal_digest``, one hash call a game), the sort by key done for all the
games dealt at once (ties in card order, as the engine breaks them).  A
test plays the same seeds and actions on the engine's
``Game`` and compares every step: the events, the tanks, the scores, the
seat to move, the end and its winners, and the observations.

State, per game ``g`` (arrays, read them, never write them):

* ``deck[g]``: the 105 cards as dealt (the tanks' cards seat by seat, then
  the pile top first: the engine's ``dealt_deck``); ``turn[g]`` cards of the
  pile have been drawn, so the top card is ``deck[g, 4 * players + turn[g]]``.
  Only the engine and this class read ``deck``: no observation holds the
  pile's order.
* ``tanks[g, seat, colour]``: each tank as counts per face colour (the rules
  match colours, never cards); ``scores[g, seat]``; ``to_move[g]``;
  ``extra[g]`` (two players: this turn follows a successful steal);
  ``unseen[g, card]`` (1 for a card never face up: the draw pile's cards);
  ``unseen_faces[g, colour]``.
* ``over[g]``, ``winners[g, seat]`` (a shared win marks every sharer) and
  ``seeds[g]``, the engine's seed of the game being played.

Actions are the environments' numbers (``mantis.envs.actions``): ``0``
scores, ``k`` steals from the seat ``k`` places after the mover; at a table
of ``n`` the actions ``0`` to ``n - 1`` are legal.  ``step`` raises
``IllegalActionError`` for any other number given to a live game, and
changes nothing.

Auto-reset (the default): a game that ends in ``step`` is reported in the
step's result (its winners, rewards, seed, length) and replaced at once by
the next deal of the batch's seed stream (``game_seed(seed, i)`` for ``i =
num_games, num_games + 1, ...`` in the order games end, lowest index first
within a step), so every game of the batch is always live: Gymnasium's
``SAME_STEP`` autoreset and pgx's ``auto_reset``.  With ``autoreset=False``
an ended game stays over and ignores its actions until ``reset``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..engine import BACKS, IllegalActionError, game_seed
from ..engine.cards import FACE, NUM_CARDS, NUM_COLOURS
from ..engine.deal import HAND_SIZE, deal_digest
from ..engine.game import target_for
from ..engine.seat_count import MAX_SEATS, SEAT_RANGE, valid_seat_count
from .actions import NUM_ACTIONS
from .observation import (
    PILE,
    PLAYERS,
    SEAT_FIELDS,
    SIZE,
    TARGET,
    TO_MOVE,
    TOP_BACK,
    TOP_FACES,
    UNSEEN_CARDS,
    UNSEEN_FACES,
)

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

#: A batch's seed is below 2**31, so that its games' seeds, ``game_seed(seed, i)``,
#: fit in 64-bit arrays.
SEED_LIMIT = 2**31

#: Reasons a game ended, as ``GameOver.reason`` names them, by code.
NOT_OVER, TARGET_REACHED, DECK_OUT = 0, 1, 2
REASONS = (None, "target", "deck_out")

_FACE = np.array(FACE, dtype=np.int64)
_COLOURS = np.arange(NUM_COLOURS)
_CARD_NUMBERS = np.arange(NUM_CARDS)


def _top_table() -> npt.NDArray[np.uint8]:
    """Per back and per 3-bit mask of its cards already seen, the observation's
    top-card fields (the back's colours, then its faces still possible); the
    last row, all zeros, is for no top card."""
    table = np.zeros((len(BACKS) + 1, 8, 2 * NUM_COLOURS), dtype=np.uint8)
    for back, colours in enumerate(BACKS):
        for seen in range(8):
            for k, colour in enumerate(colours):
                table[back, seen, colour] = 1
                table[back, seen, NUM_COLOURS + colour] = not seen >> k & 1
    return table


_TOP = _top_table()
_NO_TOP = len(BACKS)


@dataclass(frozen=True)
class BatchStep:
    """What one ``step`` did, game by game (arrays of ``num_games`` rows).

    The move's events: ``mover`` played ``action`` (the engine's ``CardRevealed``),
    turning ``card`` into ``victim``'s tank (the mover's own for a score);
    ``hit`` says it matched, and then ``taken`` cards (the stack and the card)
    went to the mover's score pile (a score: ``Scored``) or tank (a steal:
    ``Stolen``); otherwise it stayed (``ScoreMissed``, ``StealMissed``).
    ``extra_turn`` is the engine's ``ExtraTurn``.  Games that did not move
    (over, with no autoreset) have ``moved`` False and ``card`` -1.

    The end (``GameOver``): ``ended``, ``reason`` (``TARGET_REACHED``,
    ``DECK_OUT``, else ``NOT_OVER``), ``winners`` and ``rewards`` (each seat's
    share of the win: 1, ``1/k`` of a win shared by ``k``, 0), ``final_scores``,
    ``final_tank_sizes``, ``turns`` (actions in the game) and ``seeds`` (the
    engine's seed of the game that moved).  Rows of games that did not end
    hold zeros there.  ``reset`` marks the games auto-reset with a new deal.
    """

    moved: Bools
    mover: Ints
    action: Ints
    card: Ints
    victim: Ints
    hit: Bools
    taken: Ints
    extra_turn: Bools
    ended: Bools
    reason: Ints
    winners: Bools
    rewards: npt.NDArray[np.float32]
    final_scores: Ints
    final_tank_sizes: Ints
    turns: Ints
    seeds: Ints
    reset: Bools


class MantisBatch:
    """``num_games`` games of ``num_players`` seats, stepped together."""

    def __init__(
        self,
        num_games: int,
        num_players: int = 2,
        seed: int = 0,
        *,
        autoreset: bool = True,
    ) -> None:
        if not valid_seat_count(num_players):
            raise ValueError(f"Mantis is played by {SEAT_RANGE} players, not {num_players}")
        if num_games < 1:
            raise ValueError(f"a batch holds at least one game, not {num_games}")
        self.num_games = num_games
        self.num_players = num_players
        self.target = target_for(num_players)
        self.pile_at_deal = NUM_CARDS - HAND_SIZE * num_players
        self.autoreset = autoreset
        b, n = num_games, num_players
        self.deck = np.zeros((b, NUM_CARDS), dtype=np.int64)
        self.turn = np.zeros(b, dtype=np.int64)
        self.tanks = np.zeros((b, n, NUM_COLOURS), dtype=np.int64)
        self.scores = np.zeros((b, n), dtype=np.int64)
        self.to_move = np.zeros(b, dtype=np.int64)
        self.extra = np.zeros(b, dtype=bool)
        self.unseen = np.zeros((b, NUM_CARDS), dtype=np.uint8)
        self.unseen_faces = np.zeros((b, NUM_COLOURS), dtype=np.int64)
        self.over = np.zeros(b, dtype=bool)
        self.winners = np.zeros((b, n), dtype=bool)
        self.seeds = np.zeros(b, dtype=np.int64)
        self._rows = np.arange(b)
        self._seed = 0
        self._next_game = 0
        # the constant tail of an observation (target, players) and its slots'
        # rotation: slot k of an observer o is seat (o + k) % n
        self._slots = np.arange(n)[None, :]
        self.reset(seed=seed)

    # ----------------------------------------------------------------- dealing

    def reset(self, seed: int | None = None, seeds: npt.ArrayLike | None = None) -> None:
        """Deal every game again: ``seeds`` (one engine seed per game), or game
        ``i`` of the stream ``game_seed(seed, i)`` (default: the batch's seed),
        restarting the stream."""
        if seeds is not None:
            given = np.asarray(seeds, dtype=np.int64)
            if given.shape != (self.num_games,) or (given < 0).any():
                raise ValueError(f"give {self.num_games} non-negative seeds, one per game")
            self._deal(self._rows, [int(s) for s in given])
            return
        if seed is not None:
            if not 0 <= seed < SEED_LIMIT:
                raise ValueError(f"a batch's seed is from 0 to {SEED_LIMIT - 1}, not {seed}")
            self._seed = seed
        self._next_game = 0
        self._deal(self._rows, self._take_seeds(self.num_games))

    def deal_next(self, games: npt.ArrayLike) -> None:
        """Deal the next games of the seed stream to ``games`` (indexes; lowest
        first), whatever they held: what auto-reset does to a game that ends."""
        rows = np.unique(np.asarray(games, dtype=np.int64))
        if rows.size:
            self._deal(rows, self._take_seeds(rows.size))

    def _take_seeds(self, count: int) -> list[int]:
        start = self._next_game
        self._next_game += count
        return [game_seed(self._seed, i) for i in range(start, start + count)]

    def _deal(self, games: Ints, seeds: list[int]) -> None:
        """Deal ``seeds[j]`` to game ``games[j]``, exactly as ``Game.new`` does: the
        same digest per seed (``deal_digest``), its cards sorted by their keys
        (a stable sort: ties keep card order, as the engine's do) in one call."""
        n = self.num_players
        dealt = HAND_SIZE * n
        count = len(seeds)
        digests = np.frombuffer(b"".join(map(deal_digest, seeds)), dtype=np.uint8)
        digests = digests.reshape(count, -1)
        keys = digests[:, : 4 * NUM_CARDS].copy().view("<u4").astype(np.int64)
        # key, then card: the card in the low 7 bits, so a plain sort of these
        # numbers (all different) orders by key and breaks ties by card
        order = keys << 7 | _CARD_NUMBERS
        order.sort(axis=1)
        cards = order & 127
        firsts = digests[:, 4 * NUM_CARDS :].copy().view("<u8")[:, 0] % n
        faces = _FACE[cards[:, :dealt]].reshape(len(seeds), n, HAND_SIZE)
        self.deck[games] = cards
        self.tanks[games] = (faces[:, :, :, None] == _COLOURS).sum(axis=2)
        self.scores[games] = 0
        self.turn[games] = 0
        self.to_move[games] = firsts
        self.extra[games] = False
        unseen = np.ones((len(seeds), NUM_CARDS), dtype=np.uint8)
        np.put_along_axis(unseen, cards[:, :dealt], 0, axis=1)
        self.unseen[games] = unseen
        self.unseen_faces[games] = NUM_CARDS // NUM_COLOURS - (
            faces.reshape(len(seeds), dealt)[:, :, None] == _COLOURS
        ).sum(axis=1)
        self.over[games] = False
        self.winners[games] = False
        self.seeds[games] = seeds

    # ----------------------------------------------------------------- reading

    @property
    def pile_size(self) -> Ints:
        """Cards left in each game's draw pile."""
        return self.pile_at_deal - self.turn

    @property
    def top_card(self) -> Ints:
        """Each game's top card (only the rules may read it: nobody sees it before it
        is turned); -1 for a game that is over."""
        top = self.deck[self._rows, np.minimum(HAND_SIZE * self.num_players + self.turn, 104)]
        return np.where(self.over, -1, top)

    @property
    def top_back(self) -> Ints:
        """The back of each game's top card (public); -1 for a game that is over."""
        top = self.top_card
        return np.where(top >= 0, top // 3, -1)

    def action_mask(self) -> npt.NDArray[np.int8]:
        """``(num_games, 6)``: 1 for each legal action of the seat to move."""
        mask = np.zeros((self.num_games, NUM_ACTIONS), dtype=np.int8)
        mask[:, : self.num_players] = ~self.over[:, None]
        return mask

    def observe(self, seat: npt.ArrayLike | None = None) -> npt.NDArray[np.uint8]:
        """``(num_games, 178)``: each game from ``seat`` (one per game, or one for
        all; default: each game's seat to move), in the layout of
        ``mantis.envs.observation``, equal to what its ``encode`` gives for the
        engine's view of the same game."""
        n = self.num_players
        b = self.num_games
        observer = self.to_move if seat is None else np.broadcast_to(np.asarray(seat), (b,))
        out = np.zeros((b, SIZE), dtype=np.uint8)
        order = (observer[:, None] + self._slots) % n
        seats = np.concatenate((self.tanks, self.scores[:, :, None]), axis=2)
        out[:, : n * SEAT_FIELDS] = seats[self._rows[:, None], order].reshape(b, -1)
        top = self.top_card
        back = np.where(top >= 0, top // 3, _NO_TOP)
        first = np.where(top >= 0, back * 3, 0)
        unseen = self.unseen
        rows = self._rows
        seen_bits = (
            (1 - unseen[rows, first])
            + 2 * (1 - unseen[rows, first + 1])
            + 4 * (1 - unseen[rows, first + 2])
        )
        out[:, TOP_BACK.start : TOP_FACES.stop] = _TOP[back, seen_bits]
        out[:, UNSEEN_FACES] = self.unseen_faces
        out[:, UNSEEN_CARDS] = unseen
        out[:, PILE] = self.pile_size
        out[:, TARGET] = self.target
        out[:, PLAYERS] = n
        out[:, TO_MOVE] = (self.to_move - observer) % n
        return out

    def observe_all(self) -> npt.NDArray[np.uint8]:
        """``(num_games, num_players, 178)``: every seat's observation."""
        return np.stack([self.observe(s) for s in range(self.num_players)], axis=1)

    def tank_sizes(self) -> Ints:
        """``(num_games, num_players)``: the cards in each tank."""
        sizes: Ints = self.tanks.sum(axis=2)
        return sizes

    # ----------------------------------------------------------------- playing

    def step(self, actions: npt.ArrayLike, where: npt.ArrayLike | None = None) -> BatchStep:
        """Play one action in every live game (or in those ``where`` marks).

        ``actions``: one action number per game (ignored for games over or not
        marked).  ``IllegalActionError`` if a game that is to move is given a
        number that is not legal at its table; nothing changes then.
        """
        b = self.num_games
        n = self.num_players
        acts = np.asarray(actions)
        if acts.shape != (b,):
            raise ValueError(f"give one action per game: shape ({b},), not {acts.shape}")
        live = ~self.over
        if where is not None:
            live &= np.asarray(where, dtype=bool)
        games = np.flatnonzero(live)
        act = acts[games].astype(np.int64)
        bad = (act < 0) | (act >= n)
        if bad.any():
            g = int(games[np.argmax(bad)])
            raise IllegalActionError(
                f"game {g}: action {acts[g].item()!r} is not legal at a table of {n}: "
                f"0 scores, 1 to {n - 1} steal from the seat that many places on"
            )
        mover = self.to_move[games]
        victim = (mover + act) % n
        drawn = self.turn[games]
        card = self.deck[games, HAND_SIZE * n + drawn]
        colour = _FACE[card]
        tanks = self.tanks
        held = tanks[games, victim, colour]
        hit = held > 0
        scoring = act == 0
        taken = np.where(hit, held + 1, 0)

        self.turn[games] = drawn + 1
        self.unseen[games, card] = 0
        self.unseen_faces[games, colour] -= 1
        # the card goes to the victim's tank, or takes its stack of that colour
        tanks[games, victim, colour] = np.where(hit, 0, held + 1)
        scored = hit & scoring
        stolen = hit & ~scoring
        sg = games[stolen]
        if sg.size:
            tanks[sg, mover[stolen], colour[stolen]] += taken[stolen]
        new_score = self.scores[games, mover] + np.where(scored, taken, 0)
        self.scores[games, mover] = new_score

        won = scored & (new_score >= self.target)
        deck_out = ~won & (drawn + 1 == self.pile_at_deal)
        ended = won | deck_out
        extra = stolen & (n == 2) & ~ended
        self.extra[games] = extra
        # (an ended game keeps its last mover, as the engine's does)
        self.to_move[games] = np.where(extra | ended, mover, (mover + 1) % n)

        moved = np.zeros(b, dtype=bool)
        moved[games] = True
        out_ended = np.zeros(b, dtype=bool)
        out_ended[games] = ended
        full = np.full(b, -1, dtype=np.int64)
        out_mover, out_action, out_card, out_victim = full.copy(), full.copy(), full.copy(), full
        out_mover[games] = mover
        out_action[games] = act
        out_card[games] = card
        out_victim[games] = victim
        out_hit = np.zeros(b, dtype=bool)
        out_hit[games] = hit
        out_taken = np.zeros(b, dtype=np.int64)
        out_taken[games] = taken
        out_extra = np.zeros(b, dtype=bool)
        out_extra[games] = extra

        ended_games = games[ended]
        winners = np.zeros((b, n), dtype=bool)
        reason = np.zeros(b, dtype=np.int64)
        final_scores = np.zeros((b, n), dtype=np.int64)
        final_sizes = np.zeros((b, n), dtype=np.int64)
        turns = np.zeros(b, dtype=np.int64)
        rewards = np.zeros((b, n), dtype=np.float32)
        reset = np.zeros(b, dtype=bool)
        if ended_games.size:
            reason[games[won]] = TARGET_REACHED
            reason[games[deck_out]] = DECK_OUT
            winners[games[won], mover[won]] = True
            out = games[deck_out]
            if out.size:
                winners[out] = _deck_out_winners(self.scores[out], tanks[out].sum(axis=2))
            self.winners[ended_games] = winners[ended_games]
            self.over[ended_games] = True
            self.extra[ended_games] = False
            final_scores[ended_games] = self.scores[ended_games]
            final_sizes[ended_games] = tanks[ended_games].sum(axis=2)
            turns[ended_games] = self.turn[ended_games]
            shares = winners[ended_games]
            rewards[ended_games] = shares / shares.sum(axis=1, keepdims=True)
        seeds = np.where(moved, self.seeds, -1)
        if ended_games.size and self.autoreset:
            self.deal_next(ended_games)
            reset[ended_games] = True
        return BatchStep(
            moved=moved,
            mover=out_mover,
            action=out_action,
            card=out_card,
            victim=out_victim,
            hit=out_hit,
            taken=out_taken,
            extra_turn=out_extra,
            ended=out_ended,
            reason=reason,
            winners=winners,
            rewards=rewards,
            final_scores=final_scores,
            final_tank_sizes=final_sizes,
            turns=turns,
            seeds=seeds,
            reset=reset,
        )


def _deck_out_winners(scores: Ints, sizes: Ints) -> Bools:
    """The engine's ``deck_out_winners`` over rows: the most cards scored, then the
    biggest tank among those; seats still level share the win."""
    leaders = scores == scores.max(axis=1, keepdims=True)
    biggest = np.where(leaders, sizes, -1).max(axis=1, keepdims=True)
    result: Bools = leaders & (sizes == biggest)
    return result


__all__ = [
    "DECK_OUT",
    "MAX_SEATS",
    "NOT_OVER",
    "REASONS",
    "SEED_LIMIT",
    "TARGET_REACHED",
    "BatchStep",
    "MantisBatch",
]
