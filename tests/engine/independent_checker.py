"""An independent checker for Mantis game records (docs/game-record.md).

Written from the record format and docs/rules.md alone: it imports nothing
from ``mantis`` and works on plain dicts and strings, so it can judge the
engine (and ``mantis simulate --record`` output) from the outside.

    python tests/engine/independent_checker.py games.jsonl [--allow-unfinished]

prints ``N records OK`` or the first problem (``line N: ...``) and exits 1.
"""

from __future__ import annotations

import json
import sys
from itertools import combinations

COLOURS = "RGBPKYO"
HAND = 4
ALL_CODES = frozenset(
    f"{face}:{''.join(back)}" for back in combinations(COLOURS, 3) for face in back
)
assert len(ALL_CODES) == 105


class RecordProblem(ValueError):
    """A record that breaks the format or the rules."""


def _fail(message: str) -> None:
    raise RecordProblem(message)


def _is_int(value) -> bool:
    return type(value) is int


def _int_list(value, length: int, what: str) -> list[int]:
    if not isinstance(value, list) or len(value) != length or not all(map(_is_int, value)):
        _fail(f"{what} must be a list of {length} integers, not {value!r}")
    return value


def replay(players: int, first: int, tanks: list[list[str]], pile: list[str], actions: list):
    """Re-play ``actions``; returns (over, winners, reason, scores, tank sizes)."""
    target = 15 if players == 2 else 10
    # Only face colours matter to the rules: count cards per seat per colour.
    held = [dict.fromkeys(COLOURS, 0) for _ in range(players)]
    for seat, tank in enumerate(tanks):
        for code in tank:
            held[seat][code[0]] += 1
    scores = [0] * players
    to_move = first
    winners: list[int] | None = None
    reason = None
    for number, action in enumerate(actions, start=1):
        where = f"action {number}"
        if not isinstance(action, dict):
            _fail(f"{where} is not an object")
        if winners is not None:
            _fail(f"{where} comes after the end of the game")
        seat = action.get("seat")
        kind = action.get("action")
        if not _is_int(seat):
            _fail(f"{where} has no integer seat")
        if seat != to_move:
            _fail(f"{where} is played by seat {seat} but seat {to_move} is to move")
        face = pile[number - 1][0]
        stole = False
        if kind == "score":
            if "target" in action:
                _fail(f"{where}: a score has no target")
            if held[seat][face]:
                scores[seat] += held[seat][face] + 1
                held[seat][face] = 0
                if scores[seat] >= target:
                    winners, reason = [seat], "target"
            else:
                held[seat][face] += 1
        elif kind == "steal":
            victim = action.get("target")
            if not _is_int(victim) or not 0 <= victim < players:
                _fail(f"{where} steals from {victim!r}, which is not a seat")
            if victim == seat:
                _fail(f"{where}: seat {seat} steals from itself")
            if held[victim][face]:
                held[seat][face] += held[victim][face] + 1
                held[victim][face] = 0
                stole = True
            else:
                held[victim][face] += 1
        else:
            _fail(f"{where} is {kind!r}, not 'score' or 'steal'")
        if winners is not None:
            continue
        if number == len(pile):  # the last card: deck-out
            best = max(scores)
            leaders = [s for s in range(players) if scores[s] == best]
            biggest = max(sum(held[s].values()) for s in leaders)
            winners = [s for s in leaders if sum(held[s].values()) == biggest]
            reason = "deck_out"
        elif not (stole and players == 2):
            to_move = (seat + 1) % players
    sizes = [sum(h.values()) for h in held]
    return winners is not None, winners, reason, scores, sizes


def check_record(obj: dict, *, allow_unfinished: bool = False) -> None:
    """Raise ``RecordProblem`` (a ``ValueError``) unless ``obj`` is a valid record.

    A finished game is required unless ``allow_unfinished`` is true, which also
    accepts ``"result": null`` for a game that is not over yet (a save).
    """
    if not isinstance(obj, dict):
        _fail("a record must be a JSON object")
    if obj.get("version") != 1 or not _is_int(obj.get("version")):
        _fail(f"unsupported version {obj.get('version')!r}")
    players = obj.get("players")
    if not _is_int(players) or not 2 <= players <= 6:
        _fail(f"players must be an integer from 2 to 6, not {players!r}")
    target = obj.get("target")
    if not _is_int(target) or target != (15 if players == 2 else 10):
        _fail(f"target {target!r} is wrong for {players} players")
    if "seed" not in obj:
        _fail("missing seed")
    if obj["seed"] is not None and not _is_int(obj["seed"]):
        _fail(f"seed must be an integer or null, not {obj['seed']!r}")
    first = obj.get("first")
    if not _is_int(first) or not 0 <= first < players:
        _fail(f"first seat {first!r} is not a seat of {players}")
    tanks = obj.get("tanks")
    if not isinstance(tanks, list) or len(tanks) != players:
        _fail(f"tanks must list {players} tanks")
    for seat, tank in enumerate(tanks):
        if not isinstance(tank, list) or len(tank) != HAND:
            _fail(f"tank {seat} must hold {HAND} cards")
    pile = obj.get("pile")
    if not isinstance(pile, list) or len(pile) != 105 - HAND * players:
        _fail(f"the pile must hold {105 - HAND * players} cards")
    every = [code for tank in tanks for code in tank] + pile
    for code in every:
        if not isinstance(code, str) or code not in ALL_CODES:
            _fail(f"unknown card {code!r}")
    if len(set(every)) != 105:
        repeated = sorted({c for c in every if every.count(c) > 1})
        _fail(f"cards dealt more than once: {', '.join(repeated)}")
    actions = obj.get("actions")
    if not isinstance(actions, list):
        _fail("actions must be a list")
    if len(actions) > len(pile):
        _fail(f"{len(actions)} actions but only {len(pile)} cards in the pile")
    over, winners, reason, scores, sizes = replay(players, first, tanks, pile, actions)
    if "result" not in obj:
        _fail("missing result")
    result = obj["result"]
    if result is None:
        if over:
            _fail("the game is over but result is null")
        if not allow_unfinished:
            _fail("unfinished game (result is null)")
        return
    if not over:
        _fail(f"the actions stop before the game ends ({len(actions)} actions)")
    if not isinstance(result, dict):
        _fail("result must be an object or null")
    got_winners = result.get("winners")
    if (
        not isinstance(got_winners, list)
        or not all(map(_is_int, got_winners))
        or got_winners != sorted(set(got_winners))
    ):
        _fail(f"result.winners must be ascending distinct seats, not {got_winners!r}")
    got_scores = _int_list(result.get("scores"), players, "result.scores")
    got_tanks = _int_list(result.get("tanks"), players, "result.tanks")
    turns = result.get("turns")
    if not _is_int(turns):
        _fail(f"result.turns must be an integer, not {turns!r}")
    if turns != len(actions):
        _fail(f"result.turns is {turns} but there are {len(actions)} actions")
    if sum(got_scores) + sum(got_tanks) != HAND * players + turns:
        _fail("result: scores + tanks do not add up to the cards played")
    expected = {"winners": winners, "reason": reason, "scores": scores, "tanks": sizes}
    got = {"winners": got_winners, "reason": result.get("reason"), "scores": got_scores}
    got["tanks"] = got_tanks
    for key, value in expected.items():
        if got[key] != value:
            _fail(f"result.{key} is {got[key]!r} but the rules give {value!r}")


def check_lines(lines, *, allow_unfinished: bool = False) -> int:
    """Check JSON lines (blank lines ignored); returns the number of records."""
    count = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordProblem(f"line {number}: not valid JSON ({exc.msg})") from None
        try:
            check_record(obj, allow_unfinished=allow_unfinished)
        except (AssertionError, ValueError) as exc:
            raise RecordProblem(f"line {number}: {exc}") from None
        count += 1
    return count


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    allow_unfinished = "--allow-unfinished" in argv
    if len(args) != 1:
        print(f"usage: {sys.argv[0]} FILE.jsonl [--allow-unfinished]", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            count = check_lines(handle, allow_unfinished=allow_unfinished)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{args[0]}: {exc}", file=sys.stderr)
        return 1
    except RecordProblem as exc:
        print(f"{args[0]}: {exc}", file=sys.stderr)
        return 1
    print(f"{count} records OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
