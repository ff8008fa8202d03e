"""The rules of Mantis as a deterministic, event-emitting state machine.

``Game`` holds one game.  ``apply(action)`` plays the seat-to-move's action
and returns the events it caused; ``play(action)`` does the same but builds
events only when someone subscribed; ``play_out`` plays a whole game, asking
a chooser per seat, which is what the simulator uses.  All run the same rules
code (``_act``).

Representation, chosen for speed and for cheap immutable views: each seat's
tank is a tuple of 7 tuples (one per face colour, holding cards), replaced —
never mutated — when it changes, so a ``View`` can share it.  Beside it the
same 7 groups are kept in a list that the rules change in place, and the new
tuple is copied from it (copying the old tuple into a list every turn cost a
twentieth of a game).  The scores likewise: a list, and the tuple views
share, made again when a score changes.  The draw pile is a list with the
top card at the end; seen cards are a bitmask; the deal is kept as the bytes
it was dealt as.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain

from .actions import SCORE, Action, IllegalActionError, Score, Steal, legal_actions_for
from .cards import ALL_CARDS_MASK, BACK, BIT, FACE, NUM_CARDS, NUM_COLOURS, card_code, mask_of
from .deal import HAND_SIZE, check_deal, dealt_deck
from .events import (
    CardRevealed,
    EndReason,
    Event,
    ExtraTurn,
    GameOver,
    GameStarted,
    MoveEvent,
    Scored,
    ScoreMissed,
    StealMissed,
    Stolen,
    Tank,
    TurnStarted,
)
from .view import View

Subscriber = Callable[[Event], None]

TARGET_SCORE = 10
TWO_PLAYER_TARGET_SCORE = 15


def target_for(players: int) -> int:
    """Cards a score pile needs to win: 15 with two players, else 10."""
    return TWO_PLAYER_TARGET_SCORE if players == 2 else TARGET_SCORE


#: _ONE[card] is the 1-tuple ``(card,)``, shared: a missed card's new colour group.
_ONE: tuple[tuple[int], ...] = tuple((card,) for card in range(NUM_CARDS))


def deck_out_winners(scores: Sequence[int], tank_sizes: Sequence[int]) -> tuple[int, ...]:
    """Who wins when the pile runs out: the most cards scored, then the biggest
    tank among those; seats still level share the win."""
    best = max(scores)
    leaders = [s for s in range(len(scores)) if scores[s] == best]
    if len(leaders) > 1:
        biggest = max(tank_sizes[s] for s in leaders)
        leaders = [s for s in leaders if tank_sizes[s] == biggest]
    return tuple(leaders)


def _groups_of(dealt: bytes) -> list[list[tuple[int, ...]]]:
    """Per seat, the colour groups of the dealt cards, four a seat (as
    ``dealt_deck`` deals them): a tank, as a list."""
    groups = []
    for i in range(0, len(dealt), HAND_SIZE):
        by_colour: list[tuple[int, ...]] = [()] * NUM_COLOURS
        for card in dealt[i : i + HAND_SIZE]:
            by_colour[FACE[card]] += _ONE[card]
        groups.append(by_colour)
    return groups


class Game:
    """One game of Mantis from the deal to the end."""

    __slots__ = (
        "players",
        "target",
        "seed",
        "first",
        "_deck",
        "_tanks",
        "_groups",
        "_scores",
        "_score_view",
        "_pile",
        "_seen",
        "_to_move",
        "_extra",
        "_movers",
        "_actions",
        "_winners",
        "_reason",
        "_subscribers",
    )

    def __init__(
        self,
        tanks: Sequence[Sequence[int]],
        pile: Sequence[int],
        first: int,
        *,
        seed: int | None = None,
    ) -> None:
        """Start a game from a deal: ``tanks`` per seat and ``pile`` top first.

        ``ValueError`` if the deal is not the 105 cards exactly once, 4 per
        seat, for 2 to 6 seats.
        """
        check_deal(tanks, pile, first)
        self._setup(bytes(chain(chain.from_iterable(tanks), pile)), len(tanks), first, seed)

    def _setup(self, deck: bytes, players: int, first: int, seed: int | None) -> None:
        """Set up the deal ``deck``: the tanks' cards seat by seat, then the pile top
        first, a card a byte (as ``dealt_deck`` deals them)."""
        self.players = players
        self.target = target_for(players)
        self.seed = seed
        self.first = first
        dealt = HAND_SIZE * players
        self._deck = deck
        self._groups = _groups_of(deck[:dealt])
        self._tanks: list[Tank] = list(map(tuple, self._groups))
        self._scores = [0] * players
        # the scores as views hold them: a tuple made again only when one changes
        self._score_view = (0,) * players
        self._pile = list(deck[: dealt - 1 : -1])
        self._seen = mask_of(deck[:dealt])
        self._to_move = first
        self._extra = False
        # the history as two lists, seats and actions: no pair made a turn
        self._movers: list[int] = []
        self._actions: list[Action] = []
        self._winners: tuple[int, ...] | None = None
        self._reason: EndReason | None = None
        self._subscribers: list[Subscriber] = []

    @classmethod
    def new(cls, players: int, seed: int) -> Game:
        """Shuffle and deal a new game from ``seed``."""
        deck, first = dealt_deck(players, seed)
        game = cls.__new__(cls)
        game._setup(deck, players, first, seed)
        return game

    # ----------------------------------------------------------------- reading

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def over(self) -> bool:
        return self._winners is not None

    @property
    def winners(self) -> tuple[int, ...] | None:
        return self._winners

    @property
    def reason(self) -> EndReason | None:
        return self._reason

    @property
    def turn(self) -> int:
        """Actions played so far."""
        return len(self._actions)

    @property
    def scores(self) -> tuple[int, ...]:
        return self._score_view

    @property
    def tank_sizes(self) -> tuple[int, ...]:
        return tuple(sum(map(len, tank)) for tank in self._tanks)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every (seat, action) played, in order."""
        return tuple(zip(self._movers, self._actions, strict=True))

    @property
    def initial_tanks(self) -> tuple[tuple[int, ...], ...]:
        deck = self._deck
        return tuple(
            tuple(deck[i : i + HAND_SIZE]) for i in range(0, HAND_SIZE * self.players, HAND_SIZE)
        )

    @property
    def initial_pile(self) -> tuple[int, ...]:
        """The draw pile as dealt, top card first."""
        return tuple(self._deck[HAND_SIZE * self.players :])

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to move may take; empty once the game is over."""
        if self._winners is not None:
            return ()
        return legal_actions_for(self.players, self._to_move)

    def view(self, seat: int | None = None) -> View:
        """The public view of ``seat`` (default: the seat to move)."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat} at a table of {self.players}")
        pile = self._pile
        # one view per decision in the simulator: a hot path, kept flat
        return View(
            self._to_move if seat is None else seat,
            self.players,
            self.target,
            self._to_move,
            tuple(self._tanks),
            self._score_view,
            len(pile),
            BACK[pile[-1]] if pile and self._winners is None else None,
            self._seen,
            self._extra,
            len(self._actions),
            self._winners,
            self._reason,
        )

    def play_out(self, choosers: Sequence[Callable[[View], Action]]) -> None:
        """Play to the end, asking ``choosers[seat](view)`` for every action.

        The simulator's loop: the same rules as ``play``, the turns played
        one after another in the rules' own frame (``_act``).  A chooser's
        exception (or an illegal action) propagates and leaves the game where
        that seat was asked.
        """
        if self._subscribers:
            while self._winners is None:
                self.play(choosers[self._to_move](self.view()))
            return
        if self._winners is None:
            self._act(choosers[self._to_move](self.view()), None, None, choosers)

    def copy(self) -> Game:
        """An independent copy of the game as it stands, with no subscribers.

        For searches that branch from a position: the copy and the original
        play on without touching each other (tanks are immutable tuples, so
        they are shared; the lists holding them, and the colour groups' lists
        the rules change in place, are not).
        """
        other = Game.__new__(Game)
        other.players = self.players
        other.target = self.target
        other.seed = self.seed
        other.first = self.first
        other._deck = self._deck
        other._tanks = self._tanks.copy()
        other._groups = [groups.copy() for groups in self._groups]
        other._scores = self._scores.copy()
        other._score_view = self._score_view
        other._pile = self._pile.copy()
        other._seen = self._seen
        other._to_move = self._to_move
        other._extra = self._extra
        other._movers = self._movers.copy()
        other._actions = self._actions.copy()
        other._winners = self._winners
        other._reason = self._reason
        other._subscribers = []
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()

    def put_on_top(self, card: int) -> None:
        """Make ``card``, which must still be in the draw pile, its top card.

        Nobody sees the pile's order, so it can be treated as chance decided
        card by card: a caller that models it so (a chance node, a search)
        picks the next card with this.  The dealt pile (``initial_pile``, and
        so the record) is rearranged to match: replaying the record plays the
        same game.  ``ValueError`` for a card that is not in the pile or once
        the game is over.
        """
        if self._winners is not None:
            raise ValueError("the game is over: the pile is not drawn from again")
        if type(card) is not int or not 0 <= card < NUM_CARDS or self._seen & BIT[card]:
            raise ValueError(f"card {card!r} is not in the draw pile")
        pile = self._pile
        j = pile.index(card)
        top = len(pile) - 1
        if j != top:
            pile[j], pile[top] = pile[top], card
            # _pile[j] is _deck[last - j] at every turn (cards leave the end)
            deck = bytearray(self._deck)
            last = len(deck) - 1
            deck[last - j], deck[last - top] = deck[last - top], deck[last - j]
            self._deck = bytes(deck)

    def check_accounting(self) -> None:
        """``AssertionError`` unless every card is in exactly one place."""
        scored = sum(self._scores)
        on_table = [c for tank in self._tanks for cards in tank for c in cards]
        assert len(on_table) == len(set(on_table))
        assert not set(on_table) & set(self._pile)
        assert len(on_table) + len(self._pile) + scored == NUM_CARDS
        assert self._seen == ALL_CARDS_MASK ^ sum(BIT[c] for c in self._pile)
        assert self._groups == [list(tank) for tank in self._tanks]
        assert self._score_view == tuple(self._scores)

    # ----------------------------------------------------------------- events

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber`` with every event from now on; returns an unsubscribe."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def opening_events(self) -> tuple[Event, ...]:
        """The events that describe the deal and the first turn."""
        deck = self._deck
        dealt = HAND_SIZE * self.players
        initial = GameStarted(
            self.players,
            self.target,
            self.first,
            tuple(map(tuple, _groups_of(deck[:dealt]))),
            len(deck) - dealt,
            self.seed,
        )
        first_turn = TurnStarted(self.first, BACK[deck[dealt]], len(deck) - dealt, 0)
        return (initial, first_turn)

    # ----------------------------------------------------------------- playing

    def apply(self, action: Action, seat: int | None = None) -> list[MoveEvent]:
        """Play ``action`` for the seat to move and return the events it caused.

        With ``seat`` given, it must be the seat to move.  An illegal action
        raises ``IllegalActionError`` and changes nothing.
        """
        events: list[MoveEvent] = []
        self._act(action, seat, events)
        for subscriber in tuple(self._subscribers):
            for event in events:
                subscriber(event)
        return events

    def play(self, action: Action, seat: int | None = None) -> None:
        """``apply`` without returning events: they are built only for subscribers."""
        if self._subscribers:
            self.apply(action, seat)
        else:
            self._act(action, seat, None)

    def _illegal(self, action: Action, seat: int | None) -> IllegalActionError:
        """Why ``action`` (by ``seat``) is illegal now."""
        if self._winners is not None:
            return IllegalActionError("the game is over: no more actions")
        mover = self._to_move
        if seat is not None and seat != mover:
            return IllegalActionError(f"it is seat {mover}'s turn, not seat {seat}'s")
        if isinstance(action, Steal):
            if action.target == mover:
                return IllegalActionError("a seat cannot steal from itself")
            return IllegalActionError(
                f"there is no seat {action.target!r} to steal from (seats 0-{self.players - 1})"
            )
        return IllegalActionError(f"{action!r} is not an action (score or steal)")

    def _act(
        self,
        action: Action,
        seat: int | None,
        events: list[MoveEvent] | None,
        choosers: Sequence[Callable[[View], Action]] | None = None,
    ) -> None:
        """The rules of one turn.  ``events`` is None when nobody listens.

        With ``choosers`` (and no events), the turns go on until the game
        ends, ``choosers[seat](view)`` choosing each next action: the
        simulator's loop, in one frame.  The game's state is written back
        before each chooser is asked, so a chooser that looks at the game
        (or raises) finds it as any other caller would.

        Legality is checked on the way in, before anything changes; the
        checks are folded in here because this is the simulator's hot path.
        """
        players = self.players
        target = self.target
        pile = self._pile
        tanks = self._tanks
        groups = self._groups
        movers = self._movers
        actions = self._actions
        while True:
            mover = self._to_move
            # The card goes into the tank of the seat it is played at: its own to
            # score, the target's to steal.  ``type(action) is`` rather than
            # isinstance: exact and cheapest, and the type checker narrows it
            # (Score and Steal are final).
            if type(action) is Score:
                victim = mover
            elif type(action) is Steal:
                victim = action.target
                if victim.__class__ is not int or not 0 <= victim < players or victim == mover:
                    raise self._illegal(action, seat)
            else:
                raise self._illegal(action, seat)
            if self._winners is not None or (seat is not None and seat != mover):
                raise self._illegal(action, seat)
            card = pile.pop()
            colour = FACE[card]
            seen = self._seen = self._seen | BIT[card]
            movers.append(mover)
            actions.append(action)
            extra = False
            # it takes that tank's cards of its colour, or it stays there
            changed = groups[victim]
            held = changed[colour]
            # A tank is replaced, never changed (views share it): it is copied
            # from its colour groups, a list kept beside it and changed in place.
            if held:
                changed[colour] = ()
                tanks[victim] = tuple(changed)
                if victim == mover:
                    scores = self._scores
                    score = scores[mover] = scores[mover] + len(held) + 1
                    self._score_view = tuple(scores)
                    if events is not None:
                        events.append(CardRevealed(mover, action, card, mover))
                        events.append(Scored(mover, colour, held + (card,), score))
                    if score >= target:
                        self._end((mover,), "target", events)
                        return
                else:
                    mine = groups[mover]
                    mine[colour] += held + _ONE[card]
                    tanks[mover] = tuple(mine)
                    extra = players == 2
                    if events is not None:
                        events.append(CardRevealed(mover, action, card, victim))
                        events.append(Stolen(mover, victim, colour, held + (card,)))
            else:
                changed[colour] = _ONE[card]
                tanks[victim] = tuple(changed)
                if events is not None:
                    events.append(CardRevealed(mover, action, card, victim))
                    events.append(
                        ScoreMissed(mover, card, colour)
                        if victim == mover
                        else StealMissed(mover, victim, card, colour)
                    )
            if not pile:
                self._end_by_deck_out(events)
                return
            self._extra = extra
            if extra:
                if events is not None:
                    events.append(ExtraTurn(mover))
            else:
                mover = self._to_move = (mover + 1) % players
            if events is not None:
                events.append(TurnStarted(mover, BACK[pile[-1]], len(pile), len(actions), extra))
            if choosers is None:
                return
            view = View(
                mover,
                players,
                target,
                mover,
                tuple(tanks),
                self._score_view,
                len(pile),
                BACK[pile[-1]],
                seen,
                extra,
                len(actions),
                None,
                None,
            )
            action = choosers[mover](view)

    def _end_by_deck_out(self, events: list[MoveEvent] | None) -> None:
        self._end(deck_out_winners(self._scores, self.tank_sizes), "deck_out", events)

    def _end(
        self, winners: tuple[int, ...], reason: EndReason, events: list[MoveEvent] | None
    ) -> None:
        self._winners = winners
        self._reason = reason
        self._extra = False
        if events is not None:
            events.append(
                GameOver(winners, reason, self._score_view, self.tank_sizes, len(self._actions))
            )

    def __repr__(self) -> str:
        state = f"over, winners {self._winners}" if self.over else f"seat {self._to_move} to move"
        return f"<Game {self.players}p seed={self.seed} turn {self.turn}: {state}>"

    def describe(self) -> str:
        """A plain-text picture of the table, for debugging and error messages."""
        lines = [repr(self)]
        for s, tank in enumerate(self._tanks):
            cards = " ".join(card_code(c) for cards in tank for c in cards) or "-"
            lines.append(f"  seat {s}: score {self._scores[s]:2d}  tank {cards}")
        lines.append(f"  pile: {len(self._pile)} cards")
        return "\n".join(lines)


__all__ = ["Game", "SCORE", "deck_out_winners", "target_for"]
