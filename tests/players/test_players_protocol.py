"""The Player protocol: what a seat is shown, and a full game with a human seat."""

from __future__ import annotations

import asyncio
import random
import threading
import time

from botkit import random_positions

from mantis.engine import SCORE, Game, View, steal
from mantis.engine.seat_count import SEAT_COUNTS
from mantis.players import HumanPlayer, is_player
from mantis.players.bots.greedy import GreedyBot
from mantis.players.decision import decide

_ATOMS = (int, float, str, bool, type(None))


def _reachable(obj: object, out: list[object], depth: int = 0) -> None:
    """Everything reachable from ``obj`` through tuples, containers and attributes."""
    assert depth < 20, "suspiciously deep object graph"
    out.append(obj)
    if isinstance(obj, _ATOMS):
        return
    if isinstance(obj, (tuple, list, set, frozenset)):
        for item in obj:
            _reachable(item, out, depth + 1)
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            _reachable(key, out, depth + 1)
            _reachable(value, out, depth + 1)
        return
    for name in getattr(type(obj), "__slots__", ()):
        if hasattr(obj, name):
            _reachable(getattr(obj, name), out, depth + 1)
    for value in getattr(obj, "__dict__", {}).values():
        _reachable(value, out, depth + 1)


def test_view_reaches_no_pile_order_rng_or_seed() -> None:
    seed = 918_273_645_546_372  # no field of a view could equal it by chance
    for players in SEAT_COUNTS:
        game = Game.new(players, seed + players)
        bot = GreedyBot()
        for _ in range(7):
            game.play(bot.choose(game.view()))
        for seat in range(players):
            view = game.view(seat)
            assert type(view) is View
            things: list[object] = []
            _reachable(view, things)
            pile = set(game._pile)
            for thing in things:
                assert not isinstance(thing, (random.Random, Game, list, dict, set))
                assert type(thing) in (View, tuple, int, bool, str, type(None)), type(thing)
                if type(thing) is int:
                    assert thing != game.seed
            # the only card numbers a view holds are the tanks' (face-up) cards
            tank_cards = [card for tank in view.tanks for cards in tank for card in cards]
            assert not pile & set(tank_cards)
            assert len(view.scores) == players and all(type(x) is int for x in view.scores)
            assert view.seen == (1 << 105) - 1 - sum(1 << card for card in pile)
            assert view.pile_size == len(game._pile)


def test_bots_are_players() -> None:
    from mantis.players import BOTS

    for name, factory in BOTS.items():
        assert is_player(factory()), name
    assert is_player(HumanPlayer())


def _play_with_table(seats: list, game: Game) -> list[str | None]:
    async def run() -> list[str | None]:
        faults = []
        while not game.over:
            view = game.view()
            player = seats[view.to_move]
            timeout = None if isinstance(player, HumanPlayer) else 2.0
            decision = await decide(player, view, timeout)
            faults.append(decision.fault)
            game.apply(decision.action, view.to_move)
        return faults

    return asyncio.run(run())


def test_human_seat_fed_from_another_thread_and_a_bot_seat() -> None:
    human = HumanPlayer()
    game = Game.new(2, 42)
    stop = threading.Event()
    answered: list[View] = []

    def ui() -> None:  # plays the human seat: steal when the opponent shows a colour, else score
        while not stop.is_set():
            view = human.waiting_view
            if view is None:
                time.sleep(0.0005)
                continue
            assert view.seat == view.to_move == 0
            answered.append(view)
            other = view.tanks[1]
            back = view.face_probabilities()
            action = steal(1) if any(other[c] for c in back) else SCORE
            human.waiting_view = None
            human.submit(action)

    thread = threading.Thread(target=ui, daemon=True)
    thread.start()
    try:
        faults = _play_with_table([human, GreedyBot()], game)
    finally:
        stop.set()
        thread.join(2)
    assert game.over and game.winners
    assert all(f is None for f in faults)
    human_turns = sum(1 for seat, _ in game.history if seat == 0)
    assert human_turns == len(answered) > 0
    assert any(seat == 1 for seat, _ in game.history)


def test_human_seat_with_pre_submitted_actions() -> None:
    human = HumanPlayer()
    for _ in range(200):
        human.submit(SCORE)
    game = Game.new(3, 7)
    faults = _play_with_table([GreedyBot(), human, GreedyBot()], game)
    assert game.over
    assert all(f is None for f in faults)
    assert all(action == SCORE for seat, action in game.history if seat == 1)


def test_views_handed_to_bots_are_the_seat_to_move() -> None:
    for game in random_positions(50, 3):
        view = game.view()
        assert view.seat == view.to_move
        assert view.legal_actions()


def test_answers_from_input_says_what_the_protocol_says() -> None:
    from mantis.players.protocol import InputPlayer, answers_from_input

    class Waits:
        async def choose_async(self, view: View) -> object: ...

    class NotCallable:
        choose_async = None

    for seat in (HumanPlayer(), Waits(), GreedyBot(), NotCallable(), object()):
        assert answers_from_input(seat) == isinstance(seat, InputPlayer), type(seat).__name__
    assert answers_from_input(HumanPlayer()) and not answers_from_input(GreedyBot())
