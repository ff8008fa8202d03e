"""Online ratings in the app: a rated table from the lobby, each seat's rating, the keys' form."""

from __future__ import annotations

import hashlib
import stat
import sys
from pathlib import Path

from tuikit import shown, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))
from netkit import elsewhere, join, running_server  # noqa: E402

from mantis.home.player_keys import PlayerKeys, new_key, server_address  # noqa: E402
from mantis.tui.app import MantisApp  # noqa: E402
from mantis.tui.screens.lobby import LobbyScreen  # noqa: E402
from mantis.tui.screens.settings import SettingsScreen  # noqa: E402
from mantis.tui.screens.waiting_room import WaitingRoomScreen  # noqa: E402

SIZE = (80, 24)


def cells(screen: WaitingRoomScreen) -> list[list[str]]:
    table = screen.query_one("#room-seats")
    return [[str(cell) for cell in table.get_row_at(r)] for r in range(table.row_count)]


async def test_a_rated_table_from_the_lobby_shows_each_seats_rating(tmp_path: Path) -> None:
    async with running_server(tmp_path / "server") as (server, url):
        app = MantisApp(still=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("o")
            await wait_for(pilot, lambda: shown(app, LobbyScreen))
            lobby = app.screen
            lobby.query_one("#server").value = url
            lobby.query_one("#online-name").value = "Ann"
            lobby.query_one("#online-players").value = 2
            lobby.query_one("#online-rated").value = True
            lobby.action_create()  # a rated table without a clock: said, and not made
            error = lobby.query_one("#lobby-error")
            await wait_for(pilot, lambda: "needs a turn clock" in str(error.render()))
            assert not server.rooms
            lobby.query_one("#online-clock").value = 30
            lobby.action_create()
            await wait_for(pilot, lambda: shown(app, WaitingRoomScreen))
            room = app.screen
            [table] = server.rooms.values()
            assert table.rules.rated
            # The app made its key for this server, owner-only; the server holds Ann for it.
            key = PlayerKeys().keys()[server_address(url)]
            keys_file = PlayerKeys().path
            assert stat.S_IMODE(keys_file.stat().st_mode) == 0o600
            assert table.seats[0].key_hash == hashlib.sha256(key.encode()).hexdigest()
            bea = await join(url, table.code, "Bea", key=new_key(), source=elsewhere(2))
            await wait_for(pilot, lambda: len(cells(room)) == 2 and "1,500?" in cells(room)[1])
            assert cells(room)[0][3] == "1,500?"
            title = str(room.query_one("#room-title").render())
            assert "rated" in title and "unrated" not in title
            await bea.close()


async def test_the_settings_export_and_import_the_keys_in_one_line(tmp_path: Path) -> None:
    key = PlayerKeys().key_for("ws://a.example:1")
    bad = tmp_path / "bad.json"
    bad.write_text("not keys")
    app = MantisApp(still=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f2")
        await wait_for(pilot, lambda: shown(app, SettingsScreen))
        form = app.screen
        form.query_one("#keys-file").value = str(tmp_path / "out.json")
        form.query_one("#export-keys").press()
        note = form.query_one("#settings-note")
        await wait_for(pilot, lambda: "written to" in str(note.render()))
        assert stat.S_IMODE((tmp_path / "out.json").stat().st_mode) == 0o600
        assert PlayerKeys(tmp_path / "out.json").keys() == {"ws://a.example:1": key}
        form.query_one("#keys-file").value = str(bad)
        form.query_one("#import-keys").press()
        error = form.query_one("#settings-error")
        await wait_for(pilot, lambda: "not a player key file" in str(error.render()))
        assert "\n" not in str(error.render())
        assert PlayerKeys().keys() == {"ws://a.example:1": key}


async def test_the_result_shows_the_rating_changes_the_server_says_after_the_end() -> None:
    import onlinekit

    from mantis.net import protocol
    from mantis.tui.screens.game_over import GameOverScreen

    app, still, names = onlinekit.rated_game_over()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app, GameOverScreen))
        result = app.screen
        line = result.query_one("#ratings")
        assert not line.display  # the game is over, its ratings not known yet
        people = [i for i, s in enumerate(still.ratings.seats) if s is not None]
        after = [None] * len(names)
        after[people[0]] = protocol.SeatRating(1579, 420, True, 1)
        after[people[1]] = protocol.SeatRating(1421, 420, True, 1)
        before = [1500 if a is not None else None for a in after]
        still.tell(protocol.Ratings(True, True, None, tuple(after), tuple(before)))
        await wait_for(pilot, lambda: line.display)
        shown_names = [result.names[i] for i in people]
        assert str(line.render()) == (
            f"Ratings: {shown_names[0]} 1,500 → 1,579 · {shown_names[1]} 1,500 → 1,421"
        )
