"""The seats this app holds at online tables: one token per server and table code.

A seat token is what gets a person their seat back — after a dropped
connection, a closed terminal, even ``kill -9`` — so it is kept on disk
(``online-seats.json`` in the data directory) the moment the server hands it
over, and written atomically, readable by its owner only (a token is as good
as the seat to whoever reads it).  A file that cannot be read is moved aside and
a new one started: the seats in it are lost, the app is not.
"""

from __future__ import annotations

import contextlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..base.atomic import remove_stale_temp_files, write_text_atomic
from ..base.file_lock import held
from ..base.paths import data_dir
from .saves import move_aside

TOKENS_NAME = "online-seats.json"
#: Seats remembered at most (the oldest are forgotten first).
MAX_SEATS_KEPT = 200


def default_tokens_path() -> Path:
    return data_dir() / TOKENS_NAME


class SeatTokens:
    """Seat tokens by server address and table code, kept in one JSON file."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_tokens_path()
        remove_stale_temp_files(self.path.parent)  # left by a writer killed mid-save
        self.warning: str | None = None
        """Set when the file could not be read (and was moved aside)."""

    def _write(self, data: dict[str, Any]) -> None:
        write_text_atomic(self.path, json.dumps(data, indent=1) + "\n", private=True)

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            self.warning = move_aside(
                self.path, "cannot be read", what="The online seats file", instead="it is ignored"
            )
            return {}
        return data if isinstance(data, dict) else {}

    def token(self, server: str, code: str) -> str | None:
        """The token of this app's seat at ``code`` on ``server``, if it holds one."""
        entry = self._read().get(_key(server, code))
        token = entry.get("token") if isinstance(entry, dict) else None
        return token if isinstance(token, str) else None

    def name(self, server: str, code: str) -> str | None:
        """The name this app sat down with at ``code`` on ``server``."""
        entry = self._read().get(_key(server, code))
        name = entry.get("name") if isinstance(entry, dict) else None
        return name if isinstance(name, str) else None

    def remember(self, server: str, code: str, token: str, name: str) -> None:
        """Keep the token (atomically), before anything else happens at the table."""
        with self._changing():
            self._remember(server, code, token, name)

    def _remember(self, server: str, code: str, token: str, name: str) -> None:
        data = self._read()
        data[_key(server, code)] = {
            "token": token,
            "name": name,
            "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        if len(data) > MAX_SEATS_KEPT:
            oldest = sorted(data, key=lambda k: str(data[k].get("saved_at", "")))
            for key in oldest[: len(data) - MAX_SEATS_KEPT]:
                del data[key]
        self._write(data)

    def forget(self, server: str, code: str) -> None:
        """Drop the seat at ``code`` on ``server`` (the game there is over)."""
        with self._changing():
            data = self._read()
            if data.pop(_key(server, code), None) is not None:
                self._write(data)

    def _changing(self) -> contextlib.AbstractContextManager[None]:
        # Other apps (terminals, browser tabs) may change the file meanwhile: the
        # lock makes each read-change-write whole, so no app drops another's seat.
        return held(self.path.with_name(self.path.name + ".lock"))


def _key(server: str, code: str) -> str:
    return f"{server.rstrip('/')} {code.upper()}"
