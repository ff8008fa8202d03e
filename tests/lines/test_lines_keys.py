"""The keys a line-mode question offers are exactly the moves the rules allow, in any position.

A property over random positions of 2 to 6 seats (played from random deals by
random legal moves; a steal from a seat with an empty tank is as legal as any,
and the examples below hold such positions): the question, in every form
(default, brief, with ``more`` and the odds), its keys asked again, and the
keys the table takes as moves all name the legal moves, no more, no fewer.
"""

from __future__ import annotations

import io
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from positionkit import EMPTY_TANKS, position

from mantis.engine import Steal, View
from mantis.engine.record import record_of
from mantis.follow.preferences import Preferences
from mantis.home import Settings
from mantis.lines import wording
from mantis.lines.commands import read_command
from mantis.lines.console import Console
from mantis.lines.live_table import LiveTable
from mantis.table import stream_of
from mantis.table.seating import seats_from_text

NAMES = ["You", "Ann", "Bea", "Cal", "Dee", "Eve"]


def legal_keys(view: View) -> list[str]:
    return ["s", *(str(a.target + 1) for a in view.legal_actions() if isinstance(a, Steal))]


class Sent:
    can_hold = True

    def __init__(self) -> None:
        self.actions: list[object] = []

    def play(self, seat: int, turn: int, action: object) -> None:
        self.actions.append(action)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    choices=st.lists(st.integers(0, 5), max_size=40),
)
# Positions where a seat's tank is empty: stealing from it is legal, and offered.
@example(*EMPTY_TANKS[0])
@example(*EMPTY_TANKS[1])
@example(*EMPTY_TANKS[2])
def test_a_question_offers_exactly_the_legal_moves(
    players: int, seed: int, choices: list[int]
) -> None:
    game = position(players, seed, choices)
    view = game.view()
    names = NAMES[:players]
    names[view.to_move], names[0] = names[0], names[view.to_move]  # the mover is "You"
    keys = legal_keys(view)
    assert wording.keys(view) == keys
    assert re.findall(r"s|\d", wording.choices(view)) == keys
    assert wording.question_keys(view, names, brief=True).split() == keys
    brief = wording.decision(view, names, brief=True)
    assert brief.rsplit("; ", 1)[1].split() == keys
    for odds in (False, True):
        for more in (False, True):
            asked = wording.decision(view, names, odds=odds, more=more)
            offered = ["s", *sorted(set(re.findall(r"\b(\d) (?=steals from|[A-Z])", asked)))]
            assert offered == keys, asked
    # The table takes as a move exactly what the question offers.
    seats = seats_from_text(",".join(["human"] + ["random"] * (players - 1)))
    record = record_of(game, seats)
    backlog = stream_of(record)
    you = view.to_move
    taken: list[str] = []
    for number in range(1, 7):
        sent = Sent()
        live = LiveTable(
            Console(out=io.StringIO()),
            backlog,
            Preferences(Settings(speed="instant"), saving=False),
            sent,
            controls=(you,),
        )
        live.begin()
        live.handle(read_command(str(number)))
        if sent.actions:
            taken.append(str(number))
    assert ["s", *taken] == keys
