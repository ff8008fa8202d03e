"""Another game at the same table: offered, accepted, declined, lapsed, renewed too often."""

from __future__ import annotations

import asyncio
from pathlib import Path

from netkit import Client, create, heard, join, play_my_turns, running_server, watch, welcome

from mantis.base.clock import ManualClock
from mantis.engine import GameOver
from mantis.engine.record import parse_record
from mantis.net import protocol
from mantis.net.server.room.rematch import LAPSES_AFTER, OFFERS_PER_MINUTE
from mantis.table import Opening, Recorded


async def one_game(url: str, seats=("human", "open", "greedy")) -> tuple[Client, Client, Client]:
    """Ann, Bea (and a bot) play a game to its end, a spectator watching."""
    ann = await create(url, seats, "Ann")
    code = welcome(ann).code
    bea = await join(url, code, "Bea")
    spectator = await watch(url, code, "Sue")
    await ann.send(protocol.Start())
    await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
    await spectator.until(lambda: spectator.over, "the end, watched")
    return ann, bea, spectator


def openings(client: Client) -> list[Opening]:
    return [m for s in heard(client, protocol.Stream) for m in s.messages if isinstance(m, Opening)]


async def test_everyone_accepts_and_the_same_seats_play_again_first_seat_moved_on(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path) as (server, url):
        ann, bea, spectator = await one_game(url)
        first = parse_record(ann.stream[-1].record)
        mark = len(bea.heard)
        await ann.send(protocol.Again())
        offer = await bea.next(protocol.Offer, mark)
        assert (offer.by, offer.accepted) == (0, (0, 2))  # the bot accepts at once
        assert 0 < offer.lapses_in <= LAPSES_AFTER
        assert (await spectator.next(protocol.Offer)).by == 0  # spectators see it too
        await bea.send(protocol.Again())
        # A new game: the same seats, the next seat first, a fresh deal.
        for client in (ann, bea, spectator):
            await client.until(lambda c=client: len(openings(c)) == 2, "the second opening")
        room = heard(ann, protocol.RoomState)[-1]
        assert (room.state, room.game) == ("playing", 2)
        second_opening = openings(spectator)[1]
        assert second_opening.first == (first.first + 1) % 3
        assert [s.name for s in second_opening.seats] == [s.name for s in first.seats]
        assert spectator.stream[0] == second_opening  # the stream starts again at 0
        await asyncio.gather(play_my_turns(ann, 0), play_my_turns(bea, 1))
        second = parse_record(ann.stream[-1].record)
        assert second.seed != first.seed and second.first == second_opening.first
        # Each game keeps its own record on the server.
        assert [parse_record(r).seed for r in await server.store.records()] == [
            first.seed,
            second.seed,
        ]


async def test_an_offer_declined_renewed_too_often_lapsed_or_left(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(tmp_path, clock=clock) as (_, url):
        ann, bea, _ = await one_game(url, ("human", "open"))

        async def offer_and_decline(n: int) -> None:
            await ann.send(protocol.Again())
            await bea.until(lambda: len(heard(bea, protocol.Offer)) == n, f"offer {n}")
            await bea.send(protocol.Decline())
            await ann.until(lambda: len(heard(ann, protocol.OfferClosed)) == n, f"decline {n}")

        # An offer and two renewals within a minute, each declined...
        for n in range(1, OFFERS_PER_MINUTE + 1):
            await offer_and_decline(n)
        assert heard(ann, protocol.OfferClosed)[-1] == protocol.OfferClosed("declined", 1)
        # ...and a third renewal is refused.
        mark = len(ann.heard)
        await ann.send(protocol.Again())
        refused = await ann.error(mark)
        assert refused.code == protocol.OFFER_LIMIT and "\n" not in refused.message
        # A minute later she may offer again; nobody answers and it lapses.
        clock.advance(60)
        mark = len(ann.heard)
        await ann.send(protocol.Again())
        await bea.until(lambda: len(heard(bea, protocol.Offer)) == OFFERS_PER_MINUTE + 1)
        clock.advance(LAPSES_AFTER)
        assert await ann.next(protocol.OfferClosed, mark) == protocol.OfferClosed("lapsed", None)
        # Offered again, and Bea leaves the table: that ends it too.
        await ann.send(protocol.Again())
        await bea.until(lambda: len(heard(bea, protocol.Offer)) == OFFERS_PER_MINUTE + 2)
        mark = len(ann.heard)
        await bea.close()
        assert await ann.next(protocol.OfferClosed, mark) == protocol.OfferClosed("left", 1)
        assert sum(isinstance(m, GameOver) for m in ann.stream) == 1  # still the one game
        assert isinstance(ann.stream[-1], Recorded)
