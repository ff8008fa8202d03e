"""Helpers for the engine tests: hand-built deals, positions and state snapshots.

Cards are written as record codes (``"R:RGB"``) throughout the tests, so a
scenario reads like the rules: ``faces("G")[0]`` is the first green-faced card
in card order.
"""

from __future__ import annotations

import random

from mantis.engine import Game, parse_card
from mantis.engine.cards import BIT, COLOUR_LETTERS, DECK, FACE, NUM_COLOURS, card_code

PAD_FACES = "YO"
"""Face colours used to pad tanks that a test does not fully spell out."""


def faces(letter: str) -> tuple[str, ...]:
    """The 15 codes of the cards with face ``letter``, in card order."""
    colour = COLOUR_LETTERS.index(letter)
    return tuple(card_code(c) for c in DECK if FACE[c] == colour)


def cards(codes) -> list[int]:
    return [parse_card(code) for code in codes]


def build_deal(
    tanks: list[list[str]], top: list[str] = (), pad: str = PAD_FACES
) -> tuple[list[list[int]], list[int]]:
    """A full legal deal: the given tanks and top-of-pile cards, the rest in card order.

    A tank given with fewer than 4 cards is padded with unused cards whose face
    is in ``pad``.  The pile starts with ``top`` (top card first) and continues
    with every unused card in card order, so all 105 cards appear once.
    """
    chosen = [parse_card(c) for t in tanks for c in t] + [parse_card(c) for c in top]
    if len(set(chosen)) != len(chosen):
        raise AssertionError("the scenario names a card twice")
    used = set(chosen)
    pad_colours = {COLOUR_LETTERS.index(letter) for letter in pad}
    padding = [c for c in DECK if c not in used and FACE[c] in pad_colours]
    dealt = []
    for t in tanks:
        tank = [parse_card(c) for c in t]
        while len(tank) < 4:
            card = padding.pop(0)
            used.add(card)
            tank.append(card)
        dealt.append(tank)
    pile = [parse_card(c) for c in top] + [c for c in DECK if c not in used]
    return dealt, pile


def table(
    tanks: list[list[str]], top: list[str] = (), first: int = 0, pad: str = PAD_FACES
) -> Game:
    """A ``Game`` from ``build_deal``; seat ``first`` moves first."""
    dealt, pile = build_deal(tanks, top, pad)
    return Game(dealt, pile, first)


def endgame(tanks: list[list[str]], scores: list[int], pile: list[str], to_move: int = 0) -> Game:
    """A late position, for the end-of-game rules that take a whole pile to reach.

    White box: it starts a legal game and then sets the position (tanks,
    score-pile sizes, remaining pile top first, seat to move) directly.  Only
    score-pile *sizes* exist in the engine, so the cards not on the table or in
    the pile are simply taken as scored; ``check_accounting`` is not meaningful
    on such a position.
    """
    n = len(tanks)
    game = table([[] for _ in range(n)])
    game._tanks = [_tank(cards(t)) for t in tanks]
    game._groups = [list(tank) for tank in game._tanks]
    game._scores = list(scores)
    game._score_view = tuple(scores)
    pile_cards = cards(pile)
    game._pile = list(reversed(pile_cards))
    seen = (1 << 105) - 1
    for c in pile_cards:
        seen ^= BIT[c]
    game._seen = seen
    game._to_move = to_move
    return game


def _tank(tank_cards: list[int]) -> tuple[tuple[int, ...], ...]:
    by_colour: list[tuple[int, ...]] = [()] * NUM_COLOURS
    for card in tank_cards:
        by_colour[FACE[card]] += (card,)
    return tuple(by_colour)


def tank_codes(game: Game, seat: int) -> set[str]:
    """The codes of the cards in ``seat``'s tank."""
    return {card_code(c) for cards_ in game.view().tanks[seat] for c in cards_}


def state(game: Game):
    """Everything observable about a game, as one comparable value."""
    return (
        game.players,
        game.target,
        game.seed,
        game.first,
        game.initial_tanks,
        game.initial_pile,
        game.history,
        game.to_move,
        game.over,
        game.winners,
        game.reason,
        game.turn,
        game.scores,
        game.tank_sizes,
        game.legal_actions(),
        tuple(game.view(s) for s in range(game.players)),
    )


def remaining_pile(game: Game) -> tuple[int, ...]:
    """The draw pile now, top first: every action takes exactly the top card."""
    return game.initial_pile[game.turn :]


def play_random(game: Game, rng: random.Random, stop: int | None = None) -> Game:
    """Play random legal actions until the game ends (or ``stop`` actions were played)."""
    while not game.over and (stop is None or game.turn < stop):
        game.play(rng.choice(game.legal_actions()))
    return game


def play_choices(game: Game, choices: list[int], stop: int | None = None) -> Game:
    """Play legal actions picked by ``choices`` (cycled; index taken modulo the options)."""
    i = 0
    while not game.over and (stop is None or game.turn < stop):
        legal = game.legal_actions()
        pick = choices[i % len(choices)] if choices else 0
        game.play(legal[pick % len(legal)])
        i += 1
    return game


# ---------------------------------------------------------------------- malformed records


def other_seat(data):
    return (data["actions"][0]["seat"] + 1) % data["players"]


def _drop_last_action(d):
    d["actions"].pop()


MUTATIONS = {
    "unknown card": (lambda d: d["tanks"][0].__setitem__(0, "X:RGB"), "unknown card"),
    "badly ordered back": (lambda d: d["pile"].__setitem__(0, "R:GRB"), "unknown card"),
    "duplicated card": (
        lambda d: d["pile"].__setitem__(0, d["tanks"][0][0]),
        "repeats a card",
    ),
    "tank with 3 cards": (lambda d: d["tanks"][1].pop(), "4 cards"),
    "tank with 5 cards": (lambda d: d["tanks"][1].append(d["pile"].pop()), "4 cards"),
    "pile too short": (lambda d: d["pile"].pop(), "pile must hold 93 cards"),
    "pile too long": (lambda d: d["pile"].append("R:RGB"), "pile must hold 93 cards"),
    "missing tank": (lambda d: d["tanks"].pop(), "tanks"),
    "steal from self": (
        lambda d: d["actions"].__setitem__(
            0, {"seat": d["first"], "action": "steal", "target": d["first"]}
        ),
        "action 1 is illegal",
    ),
    "steal from a missing seat": (
        lambda d: d["actions"].__setitem__(0, {"seat": d["first"], "action": "steal", "target": 7}),
        "action 1 is illegal",
    ),
    "wrong seat": (
        lambda d: d["actions"][0].__setitem__("seat", other_seat(d)),
        "action 1 is illegal",
    ),
    "unknown action": (lambda d: d["actions"][0].__setitem__("action", "pass"), "action 1"),
    "steal without target": (
        lambda d: d["actions"].__setitem__(0, {"seat": d["first"], "action": "steal"}),
        "action 1",
    ),
    "wrong winners": (
        lambda d: d["result"].__setitem__("winners", [(d["result"]["winners"][0] + 1) % 3]),
        "result.winners",
    ),
    "wrong reason": (
        lambda d: d["result"].__setitem__(
            "reason", "deck_out" if d["result"]["reason"] == "target" else "target"
        ),
        "result.reason",
    ),
    "wrong scores": (lambda d: d["result"]["scores"].__setitem__(0, 99), "result.scores"),
    "wrong tanks": (lambda d: d["result"]["tanks"].__setitem__(0, 99), "result.tanks"),
    "wrong turns": (lambda d: d["result"].__setitem__("turns", 1), "result.turns"),
    "result not an object": (lambda d: d.__setitem__("result", [1]), "result"),
    "unsupported version": (lambda d: d.__setitem__("version", 2), "version"),
    "missing version": (lambda d: d.pop("version"), "version"),
    "wrong target": (lambda d: d.__setitem__("target", 15), "target must be 10"),
    "players out of range": (lambda d: d.__setitem__("players", 7), "players"),
    "first out of range": (lambda d: d.__setitem__("first", 3), "first seat"),
    "actions stop before the end": (
        _drop_last_action,
        "stop before the game ends",
    ),
    "actions after the end": (
        lambda d: d["actions"].append({"seat": 0, "action": "score"}),
        "illegal",
    ),
    "finished game with null result": (
        lambda d: d.__setitem__("result", None),
        "result is null",
    ),
    "missing result": (lambda d: d.pop("result"), "result"),
    # JSON values that merely compare equal to the right integers are still wrong.
    "version true": (lambda d: d.__setitem__("version", True), "version"),
    "version 1.0": (lambda d: d.__setitem__("version", 1.0), "version"),
    "target 10.0": (lambda d: d.__setitem__("target", 10.0), "target must be 10"),
    "seat true": (lambda d: d["actions"][0].__setitem__("seat", True), "action 1"),
    "turns as a float": (
        lambda d: d["result"].__setitem__("turns", float(d["result"]["turns"])),
        "result.turns",
    ),
    "winners as floats": (
        lambda d: d["result"].__setitem__("winners", [float(w) for w in d["result"]["winners"]]),
        "result.winners",
    ),
    "scores as floats": (
        lambda d: d["result"].__setitem__("scores", [float(s) for s in d["result"]["scores"]]),
        "result.scores",
    ),
    "not an object": (lambda d: d.clear() or d.__setitem__("x", 1), "version"),
}
"""Ways to break a finished 3-seat record's JSON: name -> (change it in place, what the
error must say).  Both the reader and the independent checker must refuse each."""
