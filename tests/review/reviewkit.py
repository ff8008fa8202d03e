"""Hand-made positions and an independent brute-force valuation for the review's tests."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from mantis.engine import (
    BACK,
    FACE,
    NUM_CARDS,
    Action,
    Game,
    GameRecord,
    Score,
    SeatInfo,
    bot_rng,
    card_code,
    parse_card,
    record_of,
    steal,
)
from mantis.players.bots.expert import load_networks, seat_features
from mantis.players.bots.greedy import GreedyBot
from mantis.players.bots.random_bot import RandomBot
from mantis.sim.runner import play_game


def hand_made(
    tanks: Sequence[Sequence[str]], pile_top: Sequence[str], first: int = 0
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """A deal: these tanks, the pile starting with ``pile_top``, the other cards after
    it in card order (they only matter when reached)."""
    tank_cards = tuple(tuple(parse_card(c) for c in tank) for tank in tanks)
    top = [parse_card(c) for c in pile_top]
    used = {c for tank in tank_cards for c in tank} | set(top)
    rest = [c for c in range(NUM_CARDS) if c not in used]
    return tank_cards, tuple(top + rest)


def game_of(tanks, pile, first: int, actions: Sequence[Action]) -> Game:
    game = Game(tanks, pile, first)
    for action in actions:
        game.play(action)
    return game


def finish(game: Game, bots: Sequence[object] | None = None) -> GameRecord:
    """Play ``game`` to its end (greedy by default) and return its record."""
    players = bots if bots is not None else [GreedyBot() for _ in range(game.players)]
    while not game.over:
        game.play(players[game.to_move].choose(game.view()))  # type: ignore[attr-defined]
    return record_of(game)


def record_of_bots(names: Sequence[str], seed: int) -> GameRecord:
    from mantis.players import make_bot

    game = play_game([make_bot(n) for n in names], seed)
    seats = tuple(SeatInfo(f"{n.title()}{s + 1}", "bot", n) for s, n in enumerate(names))
    return record_of(game, seats)


def _reference_chances(game: Game, net) -> list[float]:
    """Every seat's chance in ``game``'s position, computed from the real pile."""
    n = game.players
    view = game.view()
    pile = list(game.initial_pile[game.turn :])
    q = [sum(1 for c in pile if FACE[c] == colour) / len(pile) for colour in range(7)]
    phase = len(pile) / (105 - 4 * n)
    us = []
    for s in range(n):
        best_other = max(view.scores[j] for j in range(n) if j != s)
        x = seat_features(
            view.tank_counts(s),
            view.scores[s],
            (s - view.to_move) % n,
            q,
            view.target,
            n,
            phase,
            best_other,
        )
        us.append(net.reference(x))
    top = max(us)
    weights = [math.exp(u - top) for u in us]
    return [w / sum(weights) for w in weights]


def brute_force_options(game: Game) -> dict[Action, float]:
    """The mover's chance after each option, averaged over every card of the real pile
    that has the top card's back (each equally likely to be the one on top), each
    outcome played by the engine and valued from the real pile with the plain-loop
    network (exact when the game ends)."""
    net = load_networks()[game.players]
    turn = game.turn
    pile = list(game.initial_pile)
    back = BACK[pile[turn]]
    candidates = [i for i in range(turn, len(pile)) if BACK[pile[i]] == back]
    me = game.to_move
    values: dict[Action, float] = {}
    for action in game.legal_actions():
        total = 0.0
        for i in candidates:
            swapped = list(pile)
            swapped[turn], swapped[i] = swapped[i], swapped[turn]
            after = Game(game.initial_tanks, swapped, game.first)
            for seat, done in game.history:
                after.play(done, seat)
            after.play(action)
            if after.over:
                total += 1.0 if me in (after.winners or ()) else 0.0
            else:
                total += _reference_chances(after, net)[me]
        values[action] = total / len(candidates)
    return values


def positions_along_games(count: int, seed: int) -> Iterator[Game]:
    """Every position (a copy of the game before each move) of ``count`` games of
    random bots at 2 to 6 players."""
    for i in range(count):
        players = 2 + (seed + i) % 5
        bots = random_bots(players)
        for s, bot in enumerate(bots):
            bot.new_game(s, bot_rng(seed, i * 10 + s))
        game = Game.new(players, seed * 1000 + i)
        while not game.over:
            copy = Game(game.initial_tanks, game.initial_pile, game.first)
            for seat, action in game.history:
                copy.play(action, seat)
            yield copy
            game.play(bots[game.to_move].choose(game.view()))


def steal_only_until(players: int, seed: int, cards_left: int) -> Game:
    """A game where every move steals from the next seat: nobody scores, so it
    reaches any number of cards left."""
    game = Game.new(players, seed)
    while len(game.initial_pile) - game.turn > cards_left:
        game.play(steal((game.to_move + 1) % players))
    return game


def random_bots(players: int) -> list[RandomBot]:
    return [RandomBot() for _ in range(players)]


def codes(cards: Sequence[int]) -> list[str]:
    return [card_code(c) for c in cards]


SCORE = Score()
