"""Bots that misbehave on purpose, loaded by the tests as plug-ins (``sample_bots:Class``)."""

from __future__ import annotations

import threading

from mantis.engine import SCORE, Action, View


class GatedBot:
    """Thinks until the test opens ``GATE`` (at most a minute), then scores."""

    GATE = threading.Event()

    def choose(self, view: View) -> Action:
        self.GATE.wait(60)
        return SCORE


class BrokenBot:
    """Raises on every decision."""

    def choose(self, view: View) -> Action:
        raise RuntimeError("boom")


class CountingBot:
    """Scores, counting how often any CountingBot was asked."""

    asked = 0

    def choose(self, view: View) -> Action:
        CountingBot.asked += 1
        return SCORE
