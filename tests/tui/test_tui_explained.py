"""What the app shows explains itself: a face that cannot come is a chance of 0 (and the help
says why), a provisional rating's "?" has its key, the score bot is offered wherever a seat
is chosen, and another game nobody is there to accept is asked for first."""

from __future__ import annotations

import positions
from screenkit import app_lines
from tuikit import shown, wait_for

from mantis.engine import BACKS
from mantis.net import protocol
from mantis.tui.app import MantisApp
from mantis.tui.level_ratings import bot_choices, provisional_key
from mantis.tui.online import _starts_at_once
from mantis.tui.screens.help import HelpScreen
from mantis.tui.screens.setup import SetupScreen
from mantis.tui.widgets.odds_panel import face_labels

SIZE = (80, 24)


def test_a_face_whose_card_is_face_up_already_is_a_chance_of_0() -> None:
    record = positions.played(3, 11, 0.5)
    labels = []
    for upto in range(len(record.actions)):
        view = record.replay(upto).view()
        found = face_labels(view)
        if found is not None:
            labels.append(found)
            assert [colour for colour, _ in found] == list(BACKS[view.top_back])
    said = {label for faces in labels for _, label in faces}
    assert "0" in said and "seen" not in said  # some face ruled out on the way, said as 0
    assert said <= {"0", "1", "1/2", "1/3", "2/3"}


async def test_the_help_says_why_a_face_can_have_no_chance() -> None:
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await wait_for(pilot, lambda: shown(app, HelpScreen))
        text = " ".join(str(s.render()) for s in app.screen.query("Static"))
        assert "every back and face is one card" in " ".join(text.split())
        assert "its chance is 0" in text


def test_a_provisional_ratings_question_mark_has_its_key() -> None:
    assert provisional_key(["1,612", "1,537 (+37)", ""]) == ""
    assert provisional_key(["1,612", "1,500?"]) == "rating? = provisional"
    assert "first 20 or so rated games" in provisional_key(["1,500?"], why=True)


async def test_the_score_bot_is_offered_beside_the_levels_in_setup() -> None:
    assert [bot for _, bot in bot_choices()] == ["random", "casual", "score", "greedy", "expert"]
    app = MantisApp(still=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app, SetupScreen))
        assert app.focused is not None and app.focused.id == "players"  # not Start
        kind = app.screen.query_one("#kind-1")
        kind.focus()
        await pilot.press("enter")  # its list opens
        await pilot.pause()
        assert any("Bot · Always scores (score)" in line for line in app_lines(app))


def _room(seats: list[protocol.SeatState], clock: int | None = 30) -> protocol.RoomState:
    return protocol.RoomState("KXQD", "over", False, 0, "greedy", tuple(seats), 20, 0, clock)


ANN = protocol.SeatState("Ann", "human", None, True)
BEA_LEFT = protocol.SeatState("Bea", "human", None, True, left=True)
CAL = protocol.SeatState("Cal", "human", None, True)
BOT = protocol.SeatState("Ada", "bot", "greedy", True)


def test_another_game_with_nobody_to_accept_it_is_asked_for_first() -> None:
    question = _starts_at_once(_room([ANN, BEA_LEFT]), 0, None)
    assert question is not None
    assert "Nobody is here to accept: Bea left" in question
    assert "greedy would play that seat" in question and "30 s a move" in question
    # Someone to accept it: an offer they answer. Bots alone, as chosen: no question.
    assert _starts_at_once(_room([ANN, BEA_LEFT, CAL]), 0, None) is None
    assert _starts_at_once(_room([ANN, BOT]), 0, None) is None
    # An offer open already (Ann accepts it): nothing to ask.
    offer = protocol.Offer(1, (1,), 60.0)
    assert _starts_at_once(_room([ANN, BEA_LEFT]), 0, offer) is None
