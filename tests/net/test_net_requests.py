"""Who may ask each request at a table, and from which version.

A kind left out of either rule (``requests.rule``, ``versions.first_sent``) or
out of ``Requests.answer`` is a type error: mypy finds it, no test needs to.
These pin down what the rules say.
"""

from __future__ import annotations

from typing import get_args

from mantis.engine import SCORE
from mantis.net import protocol
from mantis.net.protocol.versions import first_sent
from mantis.net.server.requests import MayAsk, rule

EACH: list[protocol.TableRequest] = [
    protocol.AddBot("greedy"),
    protocol.AddOpen(),
    protocol.RemoveSeat(1),
    protocol.Start(),
    protocol.Act(0, SCORE),
    protocol.Again(),
    protocol.Decline(),
    protocol.Say("hello"),
    protocol.Leave(),
    protocol.ImBack(),
    protocol.Ping(1),
    protocol.Who(),
]
"""One request of each kind."""


def test_one_of_each_kind() -> None:
    assert {type(request) for request in EACH} == set(get_args(protocol.TableRequest))


def test_only_the_talk_word_on_the_game_ping_and_who_are_newer_than_version_1() -> None:
    since = {type(r): first_sent(r) for r in EACH if first_sent(r) > 1}
    version_2 = {protocol.Again, protocol.Decline, protocol.Say, protocol.Leave, protocol.ImBack}
    assert since == {
        **dict.fromkeys(version_2, 2),
        protocol.Ping: protocol.PING_VERSION,
        protocol.Who: protocol.WHO_VERSION,
    }


def test_the_host_sets_up_anyone_talks_pings_and_asks_who_the_seated_play() -> None:
    who = {type(r): rule(r).who for r in EACH}
    assert {kind for kind, asks in who.items() if asks is MayAsk.HOST} == {
        protocol.Start,
        protocol.AddBot,
        protocol.AddOpen,
        protocol.RemoveSeat,
    }
    assert {kind for kind, asks in who.items() if asks is MayAsk.ANYONE} == {
        protocol.Say,
        protocol.Ping,
        protocol.Who,
    }
