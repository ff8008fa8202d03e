"""An online table's footer: leaving is listed beside talking, and every key fits at 80 columns."""

from __future__ import annotations

import onlinekit
from textual.widgets._footer import FooterKey
from tuikit import shown, wait_for

from mantis.tui.screens.online_play import OnlinePlayScreen


async def test_the_online_tables_footer_lists_leave_and_every_key_fits() -> None:
    app = onlinekit.online_table_app(away=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: shown(app, OnlinePlayScreen))
        await pilot.pause()
        keys = [key for key in app.screen.query(FooterKey) if key.display]
        listed = {(key.key_display or key.key, key.description) for key in keys}
        assert ("l", "Leave") in listed and ("t", "Talk") in listed
        # Nothing cut off: every key listed is whole within the 80 columns.
        assert all(key.region.right <= 80 and key.region.width > 0 for key in keys)
        assert ("f2", "Settings") in listed
