"""The table of requests: every kind a client may send at a table has its row."""

from __future__ import annotations

from typing import get_args

from mantis.net import protocol
from mantis.net.server.requests import REQUESTS, Who


def test_every_request_a_client_may_make_at_a_table_has_one_row() -> None:
    assert set(REQUESTS) == set(get_args(protocol.TableRequest))


def test_only_the_talk_word_on_the_game_and_ping_are_newer_than_version_1() -> None:
    since = {kind: row.since for kind, row in REQUESTS.items() if row.since > 1}
    version_2 = {protocol.Again, protocol.Decline, protocol.Say, protocol.Leave, protocol.ImBack}
    assert since == {**dict.fromkeys(version_2, 2), protocol.Ping: protocol.PING_VERSION}
    assert REQUESTS[protocol.Ping].who is Who.ANYONE
    assert REQUESTS[protocol.Say].who is Who.ANYONE
    hosts = {kind for kind, row in REQUESTS.items() if row.who is Who.HOST}
    assert hosts == {protocol.Start, protocol.AddBot, protocol.AddOpen, protocol.RemoveSeat}
