"""The public stream is enough: a seat's view, folded from the stream, is the engine's view."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from mantis.engine import Game, SeatInfo, record_of
from mantis.players import make_bot
from mantis.table import PublicPosition, StreamError, opening_of, stream_of
from mantis.table.messages import decode, encode

#: Who makes the moves: every kind of play (random, scoring only, stealing), but not the
#: expert, whose look-ahead was three fifths of the 2000 games' time and folds the same.
BOTS = ("random", "score", "casual", "greedy")


def _seats(players: int, rng: random.Random) -> tuple[SeatInfo, ...]:
    return tuple(
        SeatInfo(f"Bot {s}", "bot", BOTS[rng.randrange(len(BOTS))]) for s in range(players)
    )


def test_views_folded_from_the_stream_equal_the_engines_in_2000_games() -> None:
    rng = random.Random(2026)
    checked = 0
    for index in range(2000):
        players = 2 + index % 5
        seats = _seats(players, rng)
        bots = [make_bot(seat.bot or "random") for seat in seats]
        game = Game.new(players, 10_000 + index)
        for seat, bot in enumerate(bots):
            hook = getattr(bot, "new_game", None)
            if hook is not None:
                hook(seat, random.Random(index * 7 + seat))
        public = PublicPosition()
        for message in opening_of(game, seats):
            public.apply(message)
        while True:
            for seat in range(players):
                assert public.view(seat) == game.view(seat)
            checked += 1
            if game.over:
                break
            for event in game.apply(bots[game.to_move].choose(game.view())):
                public.apply(event)
        assert public.over and public.winners == game.winners
    assert checked > 2000 * 20


def test_the_stream_through_json_folds_to_the_same_views() -> None:
    for seed in range(60):
        players = 2 + seed % 5
        game = Game.new(players, seed)
        rng = random.Random(seed)
        while not game.over:
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        record = record_of(game, _seats(players, rng))
        stream = stream_of(record)
        through_json = PublicPosition.of([decode(encode(message)) for message in stream])
        assert through_json.view() == game.view()
        for upto in (0, len(record.actions) // 2):
            assert PublicPosition.of(stream_of(record, upto)).view() == record.replay(upto).view()


def _a_stream() -> list:
    game = Game.new(3, 5)
    rng = random.Random(5)
    while not game.over:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    return stream_of(record_of(game, _seats(3, rng)))


@pytest.mark.parametrize(
    ("where", "change", "problem"),
    [
        (0, lambda m: replace(m, version=99), "stream version 99"),
        (0, lambda m: replace(m, target=15), "target is 10"),
        (1, lambda m: replace(m, turn=4), "does not follow"),
        (2, lambda m: replace(m, seat=(m.seat + 1) % 3), "drew on seat"),
        (2, lambda m: replace(m, card=(m.card + 3) % 105), "back"),  # the next back's card
        (3, lambda m: replace(m, colour=(m.colour + 1) % 7), "colour"),
    ],
)
def test_a_message_that_does_not_fit_the_table_is_refused(where, change, problem) -> None:
    stream = _a_stream()
    table = PublicPosition.of(stream[:where])
    before = (table.turn, table.pile_size, table.seen)
    with pytest.raises(StreamError, match=problem):
        table.apply(change(stream[where]))
    assert (table.turn, table.pile_size, table.seen) == before


def test_a_card_turned_twice_or_a_message_before_the_opening_is_refused() -> None:
    stream = _a_stream()
    with pytest.raises(StreamError, match="before the opening"):
        PublicPosition().apply(stream[1])
    table = PublicPosition.of(stream[:4])  # opening, first turn, a draw and its outcome
    with pytest.raises(StreamError):
        table.apply(stream[2])
    with pytest.raises(StreamError, match="opened twice"):
        table.apply(stream[0])
