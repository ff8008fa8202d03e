"""Helpers for the app's tests: find the table on the screen stack, wait for the UI
to reach a state (with a generous bound, never a fixed pause), and hear what the
screens say to the app."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from screenkit import app_lines, assert_table_whole
from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen

from mantis.tui.app import MantisApp
from mantis.tui.screens.game_over import GameOverScreen
from mantis.tui.screens.local_play import LocalPlayScreen

M = TypeVar("M", bound=Message)


class Heard:
    """Every message the app's nodes handle, for ``run_test(message_hook=heard)``."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def __call__(self, message: Message) -> None:
        self.messages.append(message)

    def of(self, kind: type[M]) -> list[M]:
        """The messages of ``kind`` heard so far, oldest first (each once, however far it went).

        A message that bubbles is handled by every node on its way: it is
        heard each time, and counted once here.
        """
        seen: list[M] = []
        for message in self.messages:
            if isinstance(message, kind) and not any(message is m for m in seen):
                seen.append(message)
        return seen


def table_of(app: MantisApp) -> LocalPlayScreen:
    """The table under whatever screen is on top."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, LocalPlayScreen):
            return screen
    raise AssertionError("no table on the screen stack")


async def wait_for(pilot: Pilot, test: Callable[[], object], timeout: float = 90.0) -> None:
    """Let the app run until ``test()`` holds; fail after ``timeout`` seconds.

    Textual tells nobody when a widget's state changes, so the state is looked
    at again each time the screen has handled all that was pending
    (``pilot.pause``), a moment apart so that workers run meanwhile.  The
    bound is real time on purpose: it bounds the machine (a slow one makes a
    test slower, never failed), not anything the app times — its pacing,
    budgets and autoplay run on the clock a test hands it.
    """
    deadline = time.monotonic() + timeout
    pause = 0.005
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the UI")
        await pilot.pause(pause)
        # Each look waits for every widget on the screen to handle a message: looking
        # ever less often through a long wait (a bot thinking) spares the machine.
        pause = min(pause * 1.5, 0.1)


def shown(app: App[object], kind: type[Screen[object]]) -> bool:
    """Whether a screen of ``kind`` is on top with its widgets mounted.

    A screen is on top as soon as it is pushed, a moment before its compose
    has mounted what it shows: a test that queries it waits for both.
    """
    screen = app.screen
    return isinstance(screen, kind) and screen.is_mounted


async def wait_for_human(pilot: Pilot) -> LocalPlayScreen:
    """The table, once it waits for a person's move (or the game is over).

    A table on top is then drawn, and what is drawn must pass the layout check
    (``screenkit.table_faults``): every test that waits for a person's move also
    checks what the table looks like, not only its widgets' state.
    """
    table = table_of(pilot.app)
    await wait_for(
        pilot,
        lambda: (
            table.waiting is not None
            or isinstance(pilot.app.screen, GameOverScreen)
            and pilot.app.screen.is_mounted
        ),
    )
    if pilot.app.screen is table:
        await assert_drawn_whole(pilot)
    return table


async def assert_drawn_whole(pilot: Pilot) -> None:
    """Let the app draw what it has pending, then check the table on screen is whole."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    assert_table_whole(app_lines(pilot.app))
