"""One focused test per rule of docs/rules.md, on hand-built positions."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from enginekit import endgame, faces, state, table, tank_codes

from mantis.engine import (
    SCORE,
    CardRevealed,
    ExtraTurn,
    Game,
    GameOver,
    GameStarted,
    IllegalActionError,
    Scored,
    ScoreMissed,
    StealMissed,
    Stolen,
    TurnStarted,
    parse_card,
    steal,
    target_for,
)
from mantis.engine.cards import (
    BACK,
    BACKS,
    BLUE,
    COLOUR_LETTERS,
    DECK,
    FACE,
    GREEN,
    NUM_CARDS,
    PINK,
    RED,
    card_code,
    card_of,
)
from mantis.engine.seat_count import SEAT_COUNTS

R, G, B, P, K = (faces(letter) for letter in "RGBPK")
pc = parse_card


def top_back(game: Game) -> int:
    """Back of the current top card (the test knows the pile)."""
    return BACK[game.initial_pile[game.turn]]


def pile_size(game: Game) -> int:
    return len(game.initial_pile) - game.turn


# ---------------------------------------------------------------------- the deck


def test_deck_is_105_distinct_cards_35_backs_by_3_and_15_per_face():
    assert NUM_CARDS == len(DECK) == 105
    assert len(BACKS) == len(set(BACKS)) == 35
    assert all(len(set(back)) == 3 and list(back) == sorted(back) for back in BACKS)
    assert set(Counter(BACK).values()) == {3}
    for b in range(35):
        assert sorted(FACE[c] for c in DECK if BACK[c] == b) == sorted(BACKS[b])
    assert Counter(FACE) == {colour: 15 for colour in range(7)}
    codes = {card_code(c) for c in DECK}
    assert len(codes) == 105
    for c in DECK:
        code = card_code(c)
        assert code[0] in code[2:] and code[1] == ":"
        assert parse_card(code) == c
        assert card_of(BACK[c], FACE[c]) == c
    assert card_code(card_of(0, RED)) == "R:RGB"


@pytest.mark.parametrize("bad", ["X:RGB", "R:GRB", "R:GBP", "r:RGB", "R:RGB ", "", None, 7])
def test_unknown_card_codes_are_rejected(bad):
    with pytest.raises(ValueError):
        parse_card(bad)


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_target_is_15_with_two_players_and_10_with_three_to_six(n):
    expected = 15 if n == 2 else 10
    game = Game.new(n, 1)
    assert target_for(n) == game.target == game.view().target == expected


@pytest.mark.parametrize(
    "tanks, pile, first",
    [
        ([[0, 1, 2, 3]], list(range(4, 105)), 0),  # one player
        ([[0, 1, 2]] + [[3, 4, 5, 6]], list(range(7, 105)), 0),  # 3-card tank
        ([[0, 1, 2, 3], [4, 5, 6, 7]], list(range(8, 104)), 0),  # short pile
        ([[0, 1, 2, 3], [4, 5, 6, 7]], list(range(8, 104)) + [0], 0),  # repeated card
        ([[0, 1, 2, 3], [4, 5, 6, 7]], list(range(8, 104)) + [105], 0),  # no such card
        ([[0, 1, 2, 3], [4, 5, 6, 7]], list(range(8, 105)), 2),  # no seat 2
    ],
)
def test_game_rejects_a_deal_that_is_not_the_whole_deck(tanks, pile, first):
    with pytest.raises(ValueError):
        Game(tanks, pile, first)


# ---------------------------------------------------------------------- scoring


def test_score_that_matches_moves_the_colour_and_the_drawn_card_to_the_score_pile():
    game = table([[R[0], R[1], G[0], B[0]], [], []], top=[R[2]])
    game.apply(SCORE)
    assert game.scores == (3, 0, 0)
    assert tank_codes(game, 0) == {G[0], B[0]}
    assert game.tank_sizes == (2, 4, 4)
    assert game.view().tanks[0][RED] == ()
    game.check_accounting()


def test_score_that_misses_leaves_the_drawn_card_in_the_tank():
    game = table([[G[0], B[0], P[0], K[0]], [], []], top=[R[0]])
    game.apply(SCORE)
    assert game.scores == (0, 0, 0)
    assert tank_codes(game, 0) == {G[0], B[0], P[0], K[0], R[0]}
    assert game.view().tanks[0][RED] == (pc(R[0]),)
    game.check_accounting()


def test_score_with_an_empty_tank_always_misses():
    game = table([[R[0], R[1], R[2], R[3]], [], []], top=[R[4], G[0], B[0], R[5]])
    game.apply(SCORE)  # seat 0 scores its whole tank
    assert game.tank_sizes[0] == 0
    game.apply(SCORE)
    game.apply(SCORE)
    game.apply(SCORE)  # seat 0 again, empty tank, a red card: no match possible
    assert game.scores == (5, 0, 0)
    assert tank_codes(game, 0) == {R[5]}


# ---------------------------------------------------------------------- stealing


def test_steal_that_matches_moves_the_cards_and_the_drawn_card_into_the_stealers_tank():
    game = table([[R[3], G[0], B[0], P[0]], [R[0], R[1], B[1]], []], top=[R[2]])
    game.apply(steal(1))
    assert game.scores == (0, 0, 0)  # a steal never scores
    assert tank_codes(game, 0) == {R[3], G[0], B[0], P[0], R[0], R[1], R[2]}
    assert game.view().tanks[1][RED] == ()
    assert B[1] in tank_codes(game, 1)
    assert game.tank_sizes == (7, 2, 4)
    game.check_accounting()


def test_steal_that_misses_leaves_the_drawn_card_with_the_target():
    game = table([[R[3], G[0], B[0], P[0]], [G[1], B[1]], []], top=[R[0]])
    game.apply(steal(1))
    assert tank_codes(game, 0) == {R[3], G[0], B[0], P[0]}
    assert R[0] in tank_codes(game, 1)
    assert game.tank_sizes == (4, 5, 4)
    assert game.scores == (0, 0, 0)
    game.check_accounting()


def test_stealing_from_an_empty_tank_is_legal_and_always_fails():
    game = table([[R[0], R[1], R[2], R[3]], [], []], top=[R[4], R[5]])
    game.apply(SCORE)  # seat 0 empties its tank
    assert game.tank_sizes[0] == 0
    assert steal(0) in game.legal_actions()
    events = game.apply(steal(0))  # seat 1, a red card, seat 0 holds nothing
    assert isinstance(events[1], StealMissed)
    assert tank_codes(game, 0) == {R[5]}
    assert game.tank_sizes == (1, 4, 4)


def test_cannot_steal_from_yourself_and_the_state_is_unchanged():
    game = table([[R[0]], [], []], top=[R[1]])
    assert steal(0) not in game.legal_actions()
    before = state(game)
    for act in (game.apply, game.play):
        with pytest.raises(IllegalActionError):
            act(steal(0))
    assert state(game) == before


@pytest.mark.parametrize("target", [3, 6, -1, 100])
def test_cannot_steal_from_a_seat_that_does_not_exist(target):
    game = table([[], [], []])
    before = state(game)
    for act in (game.apply, game.play):
        with pytest.raises(IllegalActionError):
            act(steal(target))
    assert state(game) == before


@pytest.mark.parametrize("bad", ["score", None, 0, ("steal", 1)])
def test_something_that_is_not_an_action_is_illegal(bad):
    game = table([[], [], []])
    before = state(game)
    with pytest.raises(IllegalActionError):
        game.apply(bad)
    assert state(game) == before


def test_wrong_seat_is_illegal_and_changes_nothing():
    game = table([[], [], []], first=1)
    before = state(game)
    for seat in (0, 2, 5):
        for act in (game.apply, game.play):
            with pytest.raises(IllegalActionError):
                act(SCORE, seat=seat)
    assert state(game) == before
    game.apply(SCORE, seat=1)
    game.play(SCORE, seat=2)
    assert game.to_move == 0


def test_legal_actions_are_score_and_a_steal_from_every_other_seat():
    game = table([[], [], [], []], first=2)
    assert game.legal_actions() == (SCORE, steal(0), steal(1), steal(3))
    assert game.view().legal_actions() == game.legal_actions()


# ---------------------------------------------------------------------- turn order


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_turn_passes_to_the_next_seat_modulo_n(n):
    game = table([[] for _ in range(n)], top=list(R[: n + 1]), first=n - 1)
    seen = [game.to_move]
    for _ in range(n):
        game.apply(SCORE)  # every seat misses (tanks hold only yellow and orange)
        seen.append(game.to_move)
    assert seen == [n - 1, *range(n)]
    assert game.scores == (0,) * n


@pytest.mark.parametrize("n", range(3, 7))
def test_no_extra_turn_after_a_successful_steal_with_three_or_more_players(n):
    game = table([[], [R[0]]] + [[] for _ in range(n - 2)], top=[R[1]])
    events = game.apply(steal(1))
    assert isinstance(events[1], Stolen)
    assert not any(isinstance(e, ExtraTurn) for e in events)
    assert game.to_move == 1
    assert not game.view().extra_turn
    assert events[-1] == TurnStarted(1, top_back(game), pile_size(game), 1, False)


# ---------------------------------------------------------------------- two players: extra turns


def test_two_players_a_successful_steal_gives_an_extra_turn_and_chains():
    game = table([[G[0], B[0]], [R[0], R[1], G[1]]], top=[R[2], G[2], P[0]])
    events = game.apply(steal(1))
    assert events == [
        CardRevealed(0, steal(1), pc(R[2]), 1),
        Stolen(0, 1, RED, (pc(R[0]), pc(R[1]), pc(R[2]))),
        ExtraTurn(0),
        TurnStarted(0, top_back(game), 96, 1, True),
    ]
    assert game.to_move == 0 and game.view().extra_turn and game.view(1).extra_turn
    events = game.apply(steal(1))  # a second successful steal: the chain goes on
    assert events[-2:] == [ExtraTurn(0), TurnStarted(0, top_back(game), 95, 2, True)]
    assert game.to_move == 0 and game.view().extra_turn
    assert tank_codes(game, 0) >= {G[0], G[1], G[2], R[0], R[1], R[2]}


def test_two_players_a_failed_steal_ends_the_chain():
    game = table([[G[0], B[0]], [R[0], R[1], G[1]]], top=[R[2], P[0]])
    game.apply(steal(1))
    assert game.to_move == 0
    events = game.apply(steal(1))  # purple: seat 1 has none
    assert events == [
        CardRevealed(0, steal(1), pc(P[0]), 1),
        StealMissed(0, 1, pc(P[0]), BLUE + 1),
        TurnStarted(1, top_back(game), 95, 2, False),
    ]
    assert game.to_move == 1 and not game.view().extra_turn


@pytest.mark.parametrize("card, hit", [(B[1], True), (P[0], False)])
def test_two_players_a_score_attempt_hit_or_miss_ends_the_chain(card, hit):
    game = table([[G[0], B[0]], [R[0], R[1], G[1]]], top=[R[2], card])
    game.apply(steal(1))
    assert game.to_move == 0 and game.view().extra_turn
    events = game.apply(SCORE)
    assert isinstance(events[1], Scored if hit else ScoreMissed)
    assert not any(isinstance(e, ExtraTurn) for e in events)
    assert events[-1] == TurnStarted(1, top_back(game), 95, 2, False)
    assert game.to_move == 1 and not game.view().extra_turn
    assert game.scores == ((2, 0) if hit else (0, 0))


# ---------------------------------------------------------------------- winning on target


def test_two_players_14_does_not_win_and_exceeding_15_wins():
    game = table(
        [list(G[0:4]), list(G[4:8])],
        top=[G[8], G[9], R[0], R[1], R[2], R[3], R[4], R[5]],
    )
    game.apply(steal(1))  # seat 0 takes 4 greens + 1: 9 greens, extra turn
    game.apply(SCORE)  # 10
    assert game.scores == (10, 0) and game.to_move == 1
    game.apply(steal(0))  # misses (seat 0 has an empty tank)
    game.apply(SCORE)  # 12
    game.apply(steal(0))
    game.apply(SCORE)  # 14
    assert game.scores == (14, 0)
    assert not game.over and game.winners is None and game.to_move == 1
    game.apply(steal(0))
    events = game.apply(SCORE)  # 16 >= 15
    assert events == [
        CardRevealed(0, SCORE, pc(R[5]), 0),
        Scored(0, RED, (pc(R[4]), pc(R[5])), 16),
        GameOver((0,), "target", (16, 0), (0, 0), 8),
    ]
    assert game.over and game.winners == (0,) and game.reason == "target"
    assert game.legal_actions() == ()
    game.check_accounting()


def test_two_players_reaching_exactly_15_wins_at_once_even_during_an_extra_turn():
    game = table(
        [list(G[0:4]), list(G[4:8])],
        top=[G[8], G[9], R[0], R[1], R[2], B[0], R[3], R[4]],
    )
    game.apply(steal(1))
    game.apply(SCORE)  # 10
    game.apply(SCORE)  # seat 1 (empty tank) misses: R0 stays with it
    game.apply(steal(1))  # seat 0 steals R0 + R1: extra turn
    game.apply(steal(1))  # misses: R2 goes to seat 1
    game.apply(SCORE)  # seat 1 misses with a blue card
    game.apply(steal(1))  # seat 0 steals R2 + R3: 4 reds, extra turn
    assert game.to_move == 0 and game.view().extra_turn and game.scores == (10, 0)
    events = game.apply(SCORE)  # 10 + 5 = 15
    assert events == [
        CardRevealed(0, SCORE, pc(R[4]), 0),
        Scored(0, RED, tuple(pc(c) for c in R[0:5]), 15),
        GameOver((0,), "target", (15, 0), (0, 1), 8),
    ]
    assert game.winners == (0,) and game.reason == "target"
    assert not game.view().extra_turn


@pytest.mark.parametrize("n", range(3, 7))
def test_three_to_six_players_reaching_exactly_10_wins(n):
    tanks = [list(R[0:4]), list(R[4:8])] + [[] for _ in range(n - 2)]
    top = [R[8], *G[: n - 1], R[9]]
    game = table(tanks, top=top)
    game.apply(steal(1))  # seat 0 holds 9 reds
    for _ in range(n - 1):
        game.apply(SCORE)  # everyone else misses with a green card
    assert game.to_move == 0 and not game.over
    events = game.apply(SCORE)
    assert events[-1] == GameOver((0,), "target", (10,) + (0,) * (n - 1), game.tank_sizes, n + 1)
    assert game.winners == (0,) and game.reason == "target"


def test_three_players_9_does_not_win_and_exceeding_10_wins():
    game = table(
        [[R[0], R[1], R[2], R[3]], [R[4], R[5], R[6], G[0]], []],
        top=[R[7], B[0], B[1], R[8], K[0], P[0], K[1]],
    )
    game.apply(steal(1))  # 8 reds
    game.apply(SCORE)  # seat 1 misses
    game.apply(SCORE)  # seat 2 misses
    game.apply(SCORE)  # seat 0: 9
    assert game.scores == (9, 0, 0) and not game.over
    game.apply(steal(0))  # seat 1 misses: the pink card goes to seat 0
    game.apply(SCORE)  # seat 2 misses
    events = game.apply(SCORE)  # seat 0: 9 + 2 = 11
    assert events == [
        CardRevealed(0, SCORE, pc(K[1]), 0),
        Scored(0, PINK, (pc(K[0]), pc(K[1])), 11),
        GameOver((0,), "target", (11, 0, 0), (0, 2, 6), 7),
    ]


# ---------------------------------------------------------------------- deck-out


def test_deck_out_the_largest_score_wins_whatever_the_tanks():
    game = endgame([[G[0], G[1], G[2], B[1], B[2]], [B[0]], [P[0]]], [5, 7, 3], [K[0]])
    events = game.apply(SCORE)
    assert events == [
        CardRevealed(0, SCORE, pc(K[0]), 0),
        ScoreMissed(0, pc(K[0]), PINK),
        GameOver((1,), "deck_out", (5, 7, 3), (6, 1, 1), 1),
    ]
    assert game.winners == (1,) and game.reason == "deck_out" and game.over
    assert game.legal_actions() == ()
    assert game.view().top_back is None and game.view().pile_size == 0


def test_deck_out_a_score_tie_is_broken_by_the_larger_tank():
    tanks = [[G[0]], [B[0], B[1], B[2]], [P[0], P[1], P[2], P[3]]]
    game = endgame(tanks, [6, 6, 2], [K[0]])
    game.apply(SCORE)  # seat 0: tank 2 cards, seat 1: 3, seat 2 (lower score): 4
    assert game.winners == (1,) and game.reason == "deck_out"


def test_deck_out_the_last_card_can_decide_the_tie_break():
    tanks = [[G[0], G[1]], [B[0], B[1]], []]
    game = endgame(tanks, [6, 6, 2], [K[0]], to_move=2)
    game.apply(steal(1))  # misses: the card goes to seat 1's tank
    assert game.winners == (1,)


def test_deck_out_players_still_tied_share_the_win():
    tanks = [list(G[0:5]), [B[0], B[1], B[3]], [B[2], P[0], P[1]], [K[0], K[1], K[2]]]
    game = endgame(tanks, [3, 6, 6, 6], [R[0]])
    events = game.apply(SCORE)  # seat 0 misses: its big tank does not matter
    assert events[-1] == GameOver((1, 2, 3), "deck_out", (3, 6, 6, 6), (6, 3, 3, 3), 1)
    assert game.winners == (1, 2, 3)


def test_deck_out_with_nothing_scored_the_largest_tank_wins_or_all_tied_share():
    game = endgame([[G[0]], [B[0]], [P[0]]], [0, 0, 0], [K[0]], to_move=1)
    game.apply(steal(2))  # seat 2 gets the last card
    assert game.winners == (2,)
    game = endgame([[G[0]], [B[0]], [P[0], P[1]]], [0, 0, 0], [K[0]], to_move=1)
    game.apply(SCORE)  # seats 1 and 2 hold 2 cards each
    assert game.winners == (1, 2)


def test_order_of_checks_a_score_with_the_last_card_that_reaches_the_target_wins_on_target():
    game = endgame([[R[0], R[1]], [B[0]], [P[0]]], [8, 9, 0], [R[2]])
    events = game.apply(SCORE)
    assert events[-1] == GameOver((0,), "target", (11, 9, 0), (0, 1, 1), 1)
    assert game.reason == "target"


def test_order_of_checks_two_players_a_successful_steal_with_the_last_card_ends_by_deck_out():
    game = endgame([[R[0]], [G[0], G[1]]], [4, 6], [G[2]])
    events = game.apply(steal(1))
    assert events == [
        CardRevealed(0, steal(1), pc(G[2]), 1),
        Stolen(0, 1, GREEN, (pc(G[0]), pc(G[1]), pc(G[2]))),
        GameOver((1,), "deck_out", (4, 6), (4, 0), 1),
    ]
    assert game.over and game.reason == "deck_out" and not game.view().extra_turn
    with pytest.raises(IllegalActionError):
        game.apply(SCORE)


# ---------------------------------------------------------------------- after the end


def test_acting_after_game_over_is_illegal_and_changes_nothing():
    game = table([list(R[0:4]), list(R[4:8]), []], top=[R[8], G[0], G[1], R[9]])
    for action in (steal(1), SCORE, SCORE, SCORE):
        game.apply(action)
    assert game.over
    before = state(game)
    for action in (SCORE, steal(1), steal(2)):
        for act in (game.apply, game.play):
            with pytest.raises(IllegalActionError):
                act(action)
        with pytest.raises(IllegalActionError):
            game.apply(action, seat=game.to_move)
    assert state(game) == before
    assert game.legal_actions() == () and game.view().legal_actions() == ()


# ---------------------------------------------------------------------- events


def test_opening_events_describe_the_deal_and_the_first_turn():
    game = table([[R[0], G[0], G[1], B[0]], [], []], top=[P[0]], first=2)
    started, first_turn = game.opening_events()
    assert started == GameStarted(3, 10, 2, tuple(game.view().tanks), 93, None)
    assert first_turn == TurnStarted(2, BACK[pc(P[0])], 93, 0)
    assert started.tanks[0][GREEN] == (pc(G[0]), pc(G[1]))


def test_events_of_a_score_hit():
    game = table([[R[0], R[1], G[0], B[0]], [], []], top=[R[2], P[0]])
    assert game.apply(SCORE) == [
        CardRevealed(0, SCORE, pc(R[2]), 0),
        Scored(0, RED, (pc(R[0]), pc(R[1]), pc(R[2])), 3),
        TurnStarted(1, BACK[pc(P[0])], 92, 1, False),
    ]


def test_events_of_a_score_miss():
    game = table([[G[0], B[0]], [], []], top=[R[0], P[0]])
    assert game.apply(SCORE) == [
        CardRevealed(0, SCORE, pc(R[0]), 0),
        ScoreMissed(0, pc(R[0]), RED),
        TurnStarted(1, BACK[pc(P[0])], 92, 1, False),
    ]


def test_events_of_a_steal_hit_and_a_steal_miss():
    game = table([[], [R[0], G[0]], [B[0]]], top=[R[1], B[1], P[0]])
    assert game.apply(steal(1)) == [
        CardRevealed(0, steal(1), pc(R[1]), 1),
        Stolen(0, 1, RED, (pc(R[0]), pc(R[1]))),
        TurnStarted(1, BACK[pc(B[1])], 92, 1, False),
    ]
    assert game.apply(steal(0)) == [
        CardRevealed(1, steal(0), pc(B[1]), 0),
        StealMissed(1, 0, pc(B[1]), BLUE),
        TurnStarted(2, BACK[pc(P[0])], 91, 2, False),
    ]


def test_scored_and_stolen_counts():
    assert Scored(0, RED, (1, 2, 3), 3).count == 3
    assert Stolen(0, 1, RED, (1, 2)).count == 2


def test_subscribers_receive_the_events_apply_returns_and_play_emits_them_too():
    for seed in range(5):
        game = Game.new(2 + seed, seed)
        twin = Game.new(2 + seed, seed)
        heard, heard_twin = [], []
        game.subscribe(heard.append)
        twin.subscribe(heard_twin.append)
        returned = []
        rng = random.Random(seed)
        while not game.over:
            action = rng.choice(game.legal_actions())
            returned.extend(game.apply(action))
            twin.play(action)
        assert heard == returned == heard_twin
        assert isinstance(returned[-1], GameOver)
        assert state(game) == state(twin)


def test_unsubscribe_stops_the_events():
    game = Game.new(3, 7)
    heard = []
    unsubscribe = game.subscribe(heard.append)
    game.apply(SCORE)
    count = len(heard)
    assert count >= 3
    unsubscribe()
    game.apply(SCORE)
    assert len(heard) == count


def test_event_stream_replays_the_game():
    """The events alone carry enough to follow scores, tanks and turns."""
    for seed in range(10):
        n = 2 + seed % 5
        game = Game.new(n, seed)
        started, turn = game.opening_events()
        tanks = [Counter(FACE[c] for cols in t for c in cols) for t in started.tanks]
        scores = [0] * n
        to_move = turn.seat
        rng = random.Random(seed)
        while not game.over:
            for event in game.apply(rng.choice(game.legal_actions())):
                if isinstance(event, CardRevealed):
                    assert event.seat == to_move
                elif isinstance(event, Scored):
                    assert tanks[event.seat][event.colour] == event.count - 1
                    tanks[event.seat][event.colour] = 0
                    scores[event.seat] += event.count
                    assert scores[event.seat] == event.score
                elif isinstance(event, ScoreMissed):
                    tanks[event.seat][event.colour] += 1
                elif isinstance(event, Stolen):
                    assert tanks[event.target][event.colour] == event.count - 1
                    tanks[event.target][event.colour] = 0
                    tanks[event.seat][event.colour] += event.count
                elif isinstance(event, StealMissed):
                    tanks[event.target][event.colour] += 1
                elif isinstance(event, TurnStarted):
                    to_move = event.seat
                elif isinstance(event, GameOver):
                    assert list(event.scores) == scores
                    assert list(event.tank_sizes) == [sum(t.values()) for t in tanks]
        assert tuple(scores) == game.scores
        assert to_move == game.to_move or game.over


@pytest.mark.parametrize("seed", range(8))
def test_play_and_apply_give_identical_states(seed):
    n = 2 + seed % 5
    a, b = Game.new(n, seed), Game.new(n, seed)
    rng = random.Random(seed)
    while not a.over:
        action = rng.choice(a.legal_actions())
        a.apply(action, seat=a.to_move)
        b.play(action, seat=b.to_move)
        assert state(a) == state(b)
    assert b.over


def test_colour_letters_are_canonical():
    assert COLOUR_LETTERS == "RGBPKYO"


# ---------------------------------------------------------------------- play_out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("listen", [False, True])
def test_play_out_plays_the_same_game_as_play(seed, listen):
    n = 2 + seed % 5
    rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
    twin_rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
    game, twin = Game.new(n, seed), Game.new(n, seed)
    heard = []
    if listen:
        game.subscribe(heard.append)
    asked = []

    def chooser(seat):
        def choose(view):
            assert view.to_move == seat == view.seat
            asked.append(seat)
            return rngs[seat].choice(view.legal_actions())

        return choose

    game.play_out([chooser(s) for s in range(n)])
    while not twin.over:
        twin.play(twin_rngs[twin.to_move].choice(twin.legal_actions()))
    assert state(game) == state(twin)
    assert asked == [seat for seat, _ in twin.history]
    assert (heard[-1] == GameOver(*_over(twin))) if listen else heard == []


@pytest.mark.parametrize("n", SEAT_COUNTS)
def test_play_out_asks_each_chooser_with_the_games_own_view(n):
    """The loop builds its views itself: each is the one ``view()`` gives, and the
    game a chooser could look at is already where the view says."""
    game = Game.new(n, 40 + n)
    rng = random.Random(n)
    asked = 0

    def choose(view):
        nonlocal asked
        asked += 1
        assert view == game.view() == game.view(view.seat)
        return rng.choice(view.legal_actions())

    game.play_out([choose] * n)
    assert game.over and asked == game.turn
    game.check_accounting()


def _over(game):
    return game.winners, game.reason, game.scores, game.tank_sizes, game.turn


@pytest.mark.parametrize("listen", [False, True])
def test_play_out_stops_at_an_illegal_action_where_that_seat_was_asked(listen):
    game = Game.new(3, 4)
    if listen:
        game.subscribe(lambda event: None)
    calls = []

    def chooser(view):
        calls.append(view.turn)
        return steal(view.to_move) if view.turn == 5 else SCORE

    with pytest.raises(IllegalActionError):
        game.play_out([chooser] * 3)
    assert game.turn == 5 and not game.over
    game.check_accounting()
    assert calls == list(range(6))
