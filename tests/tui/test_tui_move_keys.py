"""The app's move controls offer exactly the moves the rules allow, in any position; and the
extra turn after a successful steal at two seats is announced live, as it happens.

A property over random positions (a few, each a whole app): the seats that can
be picked to steal from (their panels, the digits, the arrows' cycle) are the
legal targets, steals from empty tanks included, and Score is there.  The
extra turn is checked on a live table, a steal played with the keys, not on a
board opened at a position.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from positionkit import EMPTY_TANKS, position
from textual.widgets import Button
from tuikit import table_of, wait_for, wait_for_human

from mantis.engine import ExtraTurn, SeatInfo, Steal, record_of, steal
from mantis.table import dealt
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.widgets.seat_panel import SeatPanel
from mantis.tui.widgets.turn_banner import TurnBanner

SIZE = (100, 30)


POSITIONS = st.tuples(
    st.integers(2, 6), st.integers(0, 10_000), st.lists(st.integers(0, 5), max_size=30)
)


def at_your_turn(players: int, seed: int, choices: list[int]):
    """A record of the position, "You" the seat to move and random bots the others."""
    game = position(players, seed, choices)
    you = game.to_move
    seats = tuple(
        SeatInfo("You", "human") if seat == you else SeatInfo(f"Bot{seat}", "bot", "random")
        for seat in range(players)
    )
    return game, record_of(game, seats)


@settings(
    max_examples=1, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(POSITIONS, min_size=2, max_size=2))
@example([EMPTY_TANKS[2], (6, 9, ())])
async def test_the_move_controls_offer_exactly_the_legal_moves(positions) -> None:
    # One app, each position a table opened over the last (an app starts in seconds).
    game, record = at_your_turn(*positions[0])
    app = MantisApp(first_screens.Position(record, paused=True), still=True)
    async with app.run_test(size=SIZE) as pilot:
        for number, drawn in enumerate(positions):
            if number:
                game, record = at_your_turn(*drawn)
                before = table_of(app)
                app.local.open(record, paused=True)
                await wait_for(pilot, lambda b=before: table_of(app) is not b)
            table = await wait_for_human(pilot)
            players = game.players
            legal = [a.target for a in game.view().legal_actions() if isinstance(a, Steal)]
            assert table.targets == tuple(legal)
            pickable = [p.seat for p in table.query(SeatPanel) if p.has_class("-pickable")]
            assert pickable == legal
            assert not table.query_one("#score", Button).disabled
            view = game.view()
            if not any(view.tank_size(seat) == 0 for seat in legal):
                continue
            # A seat with an empty tank: its digit picks it, as any legal target's does.
            for seat in range(players):
                await pilot.press(str(seat + 1))
                assert (table.target == seat) == (seat in legal)
            # The arrows cycle through the legal targets and nothing else.
            cycled = set()
            for _ in range(players):
                await pilot.press("right")
                cycled.add(table.target)
            assert cycled == set(legal)


async def test_a_successful_steal_at_two_seats_shows_the_extra_turn_banner_live() -> None:
    # A deal where your first steal matches (found by playing it on the engine first).
    seats = (SeatInfo("You", "human"), SeatInfo("Ann", "bot", "score"))
    for seed in range(300):
        game = dealt(seats, seed).replay()
        if game.to_move == 0 and any(
            isinstance(event, ExtraTurn) for event in game.apply(steal(1), 0)
        ):
            break
    else:
        raise AssertionError("no deal where your first steal matches")
    record = replace(dealt(seats, seed))
    app = MantisApp(first_screens.Position(record), still=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await wait_for_human(pilot)
        banner = table.query_one(TurnBanner)
        assert "EXTRA" not in str(banner.render())
        await pilot.press("2", "enter")  # steal from Ann
        await wait_for(pilot, lambda: table.state.turn == 1 and table.waiting == 0)
        assert table_of(app) is table
        shown = str(banner.render())
        assert "★ EXTRA TURN ★ ▶ YOUR TURN" in shown, shown
        assert table.state.view().extra_turn
