"""A board whose style sheets are read as it is pushed is drawn with them, from its first frame.

The first table after the setup screen, a replay, a retry: each board's own
sheets (board.tcss, play.tcss, replay.tcss...) are read when it is first
pushed.  On Python 3.12 and later Textual's ``App.run`` makes every message
loop an eager asyncio task, so a pushed screen composes inside
``push_screen``, before Textual reads those sheets: its widgets are styled
without them until the screen is restyled as it is shown.  Skipping that
restyle left the first table without its layout for the whole game (seat
panels cut, the buttons adrift over blank rows).  These tests run the app
with eager tasks as ``App.run`` does (``App.run_test`` does not), where
Python has them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import positions
import pytest
from screenkit import app_lines, assert_table_whole
from textual.app import App
from textual.dom import DOMNode
from tuikit import shown, wait_for

from mantis.review.retry import mistakes_of
from mantis.tui import first_screens
from mantis.tui.app import MantisApp
from mantis.tui.screens.local_play import LocalPlayScreen
from mantis.tui.screens.replay import ReplayScreen
from mantis.tui.screens.retry import RetryScreen
from mantis.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.skipif(
    not hasattr(asyncio, "eager_task_factory"),
    reason="Python 3.12 or later: eager tasks, which Textual's App.run uses",
)


@pytest.fixture
async def eager_tasks() -> AsyncIterator[None]:
    """The test's event loop starts tasks eagerly, as ``App.run`` sets it up on Python 3.12+."""
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    loop.set_task_factory(asyncio.eager_task_factory)  # type: ignore[attr-defined]
    yield
    loop.set_task_factory(previous)


def stale_nodes(app: App[object]) -> list[str]:
    """The nodes of the screen on top whose styles differ from what the style sheet gives."""
    screen = app.screen
    nodes: list[DOMNode] = screen.walk_children(with_self=True)
    before = [node.styles.base.get_rules() for node in nodes]
    app.stylesheet.update(screen)
    stale = []
    for node, rules in zip(nodes, before, strict=True):
        after = node.styles.base.get_rules()
        if rules != after:
            keys = sorted(
                key for key in rules.keys() | after.keys() if rules.get(key) != after.get(key)
            )
            stale.append(f"{node!r}: {', '.join(keys)}")
    return stale


def assert_styled_and_whole(app: App[object]) -> None:
    assert stale_nodes(app) == []
    assert_table_whole(app_lines(app))


@pytest.mark.usefixtures("eager_tasks")
@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=str)
async def test_the_first_table_after_the_setup_screen_has_its_layout(size) -> None:
    app = MantisApp(first_screens.Setup(), still=True)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.screen.is_mounted and "Start" in str(app_lines(app)))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: shown(app, LocalPlayScreen))
        await pilot.pause()
        assert_styled_and_whole(app)


@pytest.mark.usefixtures("eager_tasks")
async def test_the_review_board_and_the_retry_board_have_their_layout() -> None:
    app = MantisApp(
        lambda app: app.reviews.open(positions.with_mistakes(), title="sample", person=0),
        still=True,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: shown(app, ReviewScreen) and app.screen.review)
        review = app.screen
        await pilot.press("enter")  # the first labelled decision, on the board
        await wait_for(pilot, lambda: shown(app, ReplayScreen))
        await pilot.pause()
        assert_styled_and_whole(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is review)
        assert mistakes_of(review.review, 0)
        await pilot.press("r")
        await wait_for(pilot, lambda: shown(app, RetryScreen))
        await pilot.pause()
        assert_styled_and_whole(app)
