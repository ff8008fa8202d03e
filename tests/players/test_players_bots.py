"""Every built-in bot: legal, blind to hidden information, deterministic."""

from __future__ import annotations

import random

import pytest
from botkit import random_positions

from mantis.engine import BACK, Game, View, bot_rng
from mantis.players import BOTS, make_bot
from mantis.players.bots.expert import ExpertBot
from mantis.sim.runner import play_game

NAMES = sorted(BOTS)
POSITIONS = {name: (1500 if name == "expert" else 3000) for name in NAMES}


def test_the_ladder_is_registered() -> None:
    assert {"random", "score", "casual", "greedy", "expert"} <= set(BOTS)


@pytest.mark.parametrize("name", NAMES)
def test_only_legal_actions(name: str) -> None:
    bot = make_bot(name)
    if hasattr(bot, "new_game"):
        bot.new_game(0, random.Random(5))
    players_seen = set()
    for game in random_positions(POSITIONS[name], 100 + len(name)):
        view = game.view()
        action = bot.choose(view)
        assert action in view.legal_actions(), (name, action, view)
        players_seen.add(view.players)
    assert players_seen == {2, 3, 4, 5, 6}


class _Guard:
    """Wraps a bot: checks it is handed a View, nothing else."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.calls = 0

    def new_game(self, seat: int, rng: random.Random) -> None:
        if hasattr(self.bot, "new_game"):
            self.bot.new_game(seat, rng)

    def choose(self, view: View):
        assert type(view) is View
        self.calls += 1
        return self.bot.choose(view)


@pytest.mark.parametrize("name", NAMES)
def test_hidden_information_does_not_change_choices(name: str) -> None:
    """Same public view, different hidden pile order (and top face): same action."""
    rng = random.Random(77)
    differing = 0
    for game in random_positions(300, 200 + len(name)):
        view = game.view()
        twin = game.copy()
        pile = twin._pile
        top = pile[-1]
        # swap the top card for another unseen card of the same back, if any
        for i, card in enumerate(pile[:-1]):
            if BACK[card] == BACK[top]:
                pile[i], pile[-1] = top, card
                differing += 1
                break
        rest = pile[:-1]
        rng.shuffle(rest)
        pile[:-1] = rest
        assert twin.view() == view
        seat_rng = rng.random()
        first, second = make_bot(name), make_bot(name)
        for bot in (first, second):
            if hasattr(bot, "new_game"):
                bot.new_game(view.seat, random.Random(seat_rng))
        assert first.choose(game.view()) == second.choose(twin.view())
    assert differing > 50


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_given_its_seed(name: str) -> None:
    for players, seed in ((2, 1), (4, 2), (6, 3)):
        runs = []
        for _ in range(2):
            seats = [_Guard(make_bot(name)) for _ in range(players)]
            game = play_game(seats, seed)
            runs.append((game.history, game.winners))
            assert sum(s.calls for s in seats) == game.turn
        assert runs[0] == runs[1]


def test_randomised_bots_use_their_own_rng() -> None:
    """casual and random vary with the rng they are given, and repeat with the same one."""
    for name in ("casual", "random"):
        game = Game.new(4, 9)
        choices = {}
        for seed in range(20):
            bot = make_bot(name)
            bot.new_game(0, bot_rng(seed, 0))
            choices[seed] = tuple(bot.choose(game.view()) for _ in range(10))
            again = make_bot(name)
            again.new_game(0, bot_rng(seed, 0))
            assert choices[seed] == tuple(again.choose(game.view()) for _ in range(10))
        assert len(set(choices.values())) > 1, name


def test_expert_values_are_probabilities_and_wins_are_taken() -> None:
    bot = ExpertBot()
    for game in random_positions(200, 300):
        values = bot.action_values(game.view())
        assert all(-1e-9 <= v <= 1 + 1e-9 for v in values)


def test_expert_expectation_matches_the_engine() -> None:
    """Each action's value is the exact average, over the possible faces, of the
    value of the position the engine really reaches (win, deck-out or network)."""
    import math

    from mantis.engine import BACKS
    from mantis.players.bots.expert import next_card_odds, position_strengths
    from mantis.players.counting import top_face_odds, unseen_face_counts

    bot = ExpertBot()
    for game in random_positions(150, 400):
        view = game.view()
        n = view.players
        net = bot._nets[n]
        values = bot.action_values(view)
        for i, action in enumerate(view.legal_actions()):
            total = 0.0
            for colour, p in top_face_odds(view):
                card = view.top_back * 3 + BACKS[view.top_back].index(colour)
                twin = game.copy()
                pile = twin._pile
                j = pile.index(card)
                pile[j], pile[-1] = pile[-1], pile[j]
                twin.play(action)
                if twin.over:
                    total += p * (view.to_move in twin.winners)
                    continue
                after = twin.view()
                counts = [tuple(map(len, tank)) for tank in after.tanks]
                q = next_card_odds(unseen_face_counts(after.seen), after.pile_size)
                us = position_strengths(
                    net,
                    counts,
                    after.scores,
                    after.to_move,
                    q,
                    after.target,
                    after.pile_size / (105 - 4 * n),
                )
                total += p / sum(math.exp(u - us[view.to_move]) for u in us)
            assert abs(total - values[i]) < 1e-9


def test_generated_network_equals_the_plain_loop() -> None:
    from mantis.players.bots.expert import NUM_FEATURES, load_networks

    rng = random.Random(3)
    for net in load_networks().values():
        for _ in range(200):
            x = [rng.uniform(-1, 2) for _ in range(NUM_FEATURES)]
            assert abs(net(x) - net.reference(x)) < 1e-9


def test_packaged_expert_weights_cover_every_table() -> None:
    import json
    from importlib import resources

    from mantis.players.bots.expert import FEATURES, load_networks

    text = resources.files("mantis.players.bots").joinpath("expert_weights.json").read_text()
    data = json.loads(text)
    assert data["features"] == list(FEATURES)
    assert sorted(load_networks(data)) == [2, 3, 4, 5, 6]
