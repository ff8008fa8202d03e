"""People sitting down take turns at the server, and games under way play on meanwhile."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from netkit import WAIT, Client, create, heard, join, running_server, turn_to_answer, welcome

from mantis.engine import SCORE, CardRevealed
from mantis.net import protocol
from mantis.net.server import TableServer


async def test_openings_wait_their_turn_while_a_game_under_way_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_server(tmp_path, openings=1) as (_, url):
        ann = await create(url, ("human", "open"), "Ann")
        code = welcome(ann).code
        bea = await join(url, code, "Bea")
        await ann.send(protocol.Start())
        people = {0: ann, 1: bea}
        await ann.until(lambda: turn_to_answer(ann.stream), "the first turn")

        # The next opening to look a table up is held there until the test lets it go.
        entered, held = asyncio.Event(), asyncio.Event()
        find = TableServer._find

        async def held_find(self: TableServer, *args: Any, **kwargs: Any) -> Any:
            if not entered.is_set():
                entered.set()
                await held.wait()
            return await find(self, *args, **kwargs)

        monkeypatch.setattr(TableServer, "_find", held_find)
        first, second = await Client.connect(url), await Client.connect(url)
        try:
            await first.send(protocol.Watch(protocol.PROTOCOL_VERSION, code, "Cy"))
            await asyncio.wait_for(entered.wait(), WAIT)
            await second.send(protocol.Watch(protocol.PROTOCOL_VERSION, code, "Di"))

            # The game goes on while both openings wait.
            turn = turn_to_answer(ann.stream)
            assert turn is not None
            await people[turn.seat].send(protocol.Act(turn.turn, SCORE))
            for person in people.values():
                await person.until(lambda p=person: heard_card(p, turn.turn), "the move's card")
            # The second opening waits behind the first, which is held.
            assert not heard(first, protocol.Welcome) and not heard(second, protocol.Welcome)
        finally:
            held.set()  # (a server cannot stop while an opening is held)
        assert (await first.next(protocol.Welcome)).seat is None
        assert (await second.next(protocol.Welcome)).seat is None
        await second.until(lambda: heard_card(second, turn.turn), "the backlog")


def heard_card(client: Client, turn: int) -> bool:
    """Whether ``client`` has the card of ``turn`` (the turns' cards come in order)."""
    return sum(isinstance(m, CardRevealed) for m in client.stream) > turn
