"""What the line mode says: a decision, a position, the odds, a result, in words to be heard.

Each line leads with what matters most (who, then what), spells every
colour as a word and carries no glyph that means something: no brackets,
no quotation marks, no symbols a screen reader would read by name.  The
moves themselves are worded as the game log words them
(``table.narration``), then made ``heard``: one sentence per move, and
"you" first for a move aimed at the person ("You lost 2 orange to Cal.").

A turn's question is short by default: whose turn, the top card's back,
and each move's key ("s scores; steal from 2 Ann or 3 Bea"), with its
chance when the odds are on.  ``more`` adds what each tank holds of the
top card's colours.  Brief (``brief on``) says each move and asks each
question in as few words as it can ("You: red, green, blue; s 2 3").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

from ..engine import BACKS, COLOUR_NAMES, Steal, View
from ..engine.events import GameOver, Scored, ScoreMissed, StealMissed, Stolen
from ..table import Message, Talk
from ..table.credit import credited_names, left_note
from ..table.names import YOU
from ..table.narration import join_names, narrate, possessive, reason_text, talk_line

#: The longest seed said in full: a server's seeds are 19 digits, which nobody wants heard.
SAID_SEED_DIGITS = 6


def colours(back: int) -> str:
    """A card's back, spelt: "red, green or blue"."""
    names = [COLOUR_NAMES[c] for c in BACKS[back]]
    return join_or(names)


def chance(p: Fraction) -> str:
    """A chance as it is said: "1 in 3", "2 in 3", "sure", "no chance"."""
    if p <= 0:
        return "no chance"
    if p >= 1:
        return "sure"
    return f"{p.numerator} in {p.denominator}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 card", "3 cards" (``many``: the plural when it is not ``word`` + s)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def who(name: str) -> str:
    """A seat's name inside a sentence ("you" for the seat called You)."""
    return "you" if name == YOU else name


def _has(name: str) -> str:
    return "you have" if name == YOU else f"{name} has"


def seed_words(seed: int | None) -> int | None:
    """The seed as it is said: a short one in full, none for a long one (a server's)."""
    if seed is None or len(str(abs(seed))) > SAID_SEED_DIGITS:
        return None
    return seed


def tank_text(view: View, seat: int, among: Sequence[int] | None = None) -> str:
    """A tank's cards by colour ("2 blue and 1 red"), or "empty"; ``among``: these colours only."""
    counts = view.tank_counts(seat)
    wanted = range(len(counts)) if among is None else among
    held = [f"{counts[c]} {COLOUR_NAMES[c]}" for c in wanted if counts[c]]
    if not held:
        return "empty" if among is None else "none of these"
    return join_names(held)


def top_card(view: View, *, odds: bool = False) -> str:
    """ "top card red, green or blue"; with the odds, which faces are out of play."""
    if view.top_back is None:
        raise ValueError("no top card is up: a card is being turned")
    text = f"top card {colours(view.top_back)}"
    if odds:
        gone = [COLOUR_NAMES[c] for c, weight in view.face_weights() if not weight]
        if gone:
            text += f", {join_names(gone)} already seen"
    return text


def _steal_targets(view: View) -> list[int]:
    return [a.target for a in view.legal_actions() if isinstance(a, Steal)]


def keys(view: View) -> list[str]:
    """The keys of the moves open now, score first: ["s", "2", "3"]."""
    return ["s", *(str(target + 1) for target in _steal_targets(view))]


def choices(view: View, *, brief: bool = False) -> str:
    """The keys of the moves open now: "s, 2, 3 or 4" (brief: "s 2 3 4")."""
    found = keys(view)
    return " ".join(found) if brief else join_or(found)


def options(
    view: View,
    names: Sequence[str],
    *,
    odds: bool = False,
    more: bool = False,
    keyed: bool = True,
) -> list[str]:
    """Each move the seat to move may make, score first: by its key ("s scores",
    "2 steals from Ann") for the person asked, else by the mover's name ("Bea scores",
    "Bea steals from you"); with ``odds`` its chance to match, with ``more`` what the tank
    holds of the top card's colours ("s scores, you have 2 blue, 1 in 3 to match")."""
    from ..players.odds import odds_for

    if view.top_back is None:
        raise ValueError("no top card is up: a card is being turned")
    back = BACKS[view.top_back]
    found = odds_for(view) if odds else None
    mover = view.to_move
    p_score = found.p_score if found is not None else None
    said = [
        _option(
            _doing(names, mover, None, keyed), _has(names[mover]), view, mover, back, p_score, more
        )
    ]
    for target in _steal_targets(view):
        key = _doing(names, mover, target, keyed)
        holder = "you have" if names[target] == YOU else "who has"
        p = None
        if found is not None:
            p = next(s.p_match for s in found.steals if s.target == target)
        said.append(_option(key, holder, view, target, back, p, more))
    return said


def _doing(names: Sequence[str], mover: int, target: int | None, keyed: bool) -> str:
    """A move by its key ("s scores", "2 steals from Ann") or by its mover's name ("Bea
    scores", "You steal from Bea")."""
    if keyed:
        return "s scores" if target is None else f"{target + 1} steals from {who(names[target])}"
    name = names[mover]
    verb = ("score" if target is None else "steal") + ("" if name == YOU else "s")
    victim = "" if target is None else f" from {who(names[target])}"
    return f"{name} {verb}{victim}"


def _option(
    key: str,
    holder: str,
    view: View,
    seat: int,
    back: Sequence[int],
    p: Fraction | None,
    more: bool,
) -> str:
    """One move's words: its key, then (``more``) what ``seat``'s tank holds of ``back``'s
    colours, then its chance (``p``; left out when nothing there could match)."""
    if not more:
        return key if p is None else f"{key}, {chance(p)}"
    held = tank_text(view, seat, back)
    text = f"{key}, {holder} {held}"
    if p is not None and held != "none of these":
        text += f", {chance(p)} to match"
    return text


def moves_text(view: View, names: Sequence[str], *, odds: bool = False, more: bool = False) -> str:
    """The moves as the question says them: "s scores; steal from 2 Ann, 3 Bea or 4 Cal"
    (each steal's "steals" said once when nothing more is said of it)."""
    said = options(view, names, odds=odds, more=more)
    if more:
        return "; ".join(said)
    steals = [re.sub(r"^(\d+) steals from ", r"\1 ", line) for line in said[1:]]
    if not steals:
        return said[0]
    return f"{said[0]}; steal from {'; '.join(steals) if odds else join_or(steals)}"


def decision(
    view: View,
    names: Sequence[str],
    *,
    odds: bool = False,
    more: bool = False,
    clock: int | None = None,
    brief: bool = False,
) -> str:
    """The question of a turn played here, in one line: whose turn (and its time), the top
    card, the moves: "Your turn, top card red, green or blue. s scores; steal from 2 Ann.";
    brief: "You: red, green, blue; s 2" (``more`` and ``odds`` are then asked for)."""
    if view.top_back is None:
        raise ValueError("no top card is up: a card is being turned")
    mover = names[view.to_move]
    if brief:
        head = "You" if mover == YOU else mover
        if view.extra_turn:
            head += " again"
        if clock is not None:
            head += f", {plural(clock, 'second')}"
        faces = ", ".join(COLOUR_NAMES[c] for c in BACKS[view.top_back])
        return f"{head}: {faces}; {choices(view, brief=True)}"
    turn = "extra turn" if view.extra_turn else "turn"
    head = f"Your {turn}" if mover == YOU else f"{mover}, your {turn}"
    if clock is not None:
        head += f", {plural(clock, 'second')} left"
    moves = moves_text(view, names, odds=odds, more=more)
    return f"{head}, {top_card(view, odds=odds)}. {moves}."


def question_keys(view: View, names: Sequence[str], *, brief: bool = False) -> str:
    """What is asked again after a line interrupts a question: the moves' keys ("s, 2 or 3";
    "Ann: s, 2 or 3" when the seat asked has a name)."""
    found = choices(view, brief=brief)
    mover = names[view.to_move]
    return found if mover == YOU else f"{mover}: {found}"


def option_lines(
    view: View, names: Sequence[str], *, odds: bool = False, keyed: bool = True
) -> list[str]:
    """Each move with what it would match, a line each (``more`` typed once)."""
    return [f"{line}." for line in options(view, names, odds=odds, more=True, keyed=keyed)]


def odds_lines(view: View, names: Sequence[str], *, keyed: bool = True) -> list[str]:
    """The exact odds of every move for the seat to move, a line each: by its key for the
    person asked, else by the mover's name."""
    from ..players.odds import odds_for

    found = odds_for(view)
    if found is None:
        raise ValueError("no odds without a top card")
    faces = ", ".join(f"{COLOUR_NAMES[c]} {chance(p)}" for c, p in found.faces)
    lines = [f"Odds for {who(names[found.seat])}: the top card is {faces}."]
    score = _doing(names, found.seat, None, keyed)
    lines.append(f"{score}: {chance(found.p_score)} to match{_cards(found.expected_score_cards)}.")
    for steal in found.steals:
        key = _doing(names, found.seat, steal.target, keyed)
        lines.append(f"{key}: {chance(steal.p_match)} to match{_cards(steal.expected_cards)}.")
    return lines


def _cards(expected: Fraction) -> str:
    if not expected:
        return ""
    figure = f"{float(expected):.1f}".removesuffix(".0")
    return f", {figure} {'card' if figure == '1' else 'cards'} on average"


def coach_line(view: View, names: Sequence[str]) -> str:
    """What the strongest bot would do for the seat to move (the person asked), and why."""
    from ..players.coach import advise

    advice = advise(view, names, chance=chance)
    if advice is None:
        raise ValueError("no advice without a top card")
    move, _, why = advice.reason.partition(": ")  # "score: 1 in 3 to match..."
    return f"Coach: {spoken(move)}{f', {spoken(why)}' if why else ''}."


def spoken(text: str) -> str:
    """Signs a screen reader would read as their names, in words: "~1.3" is "about 1.3",
    "8/10" is "8 of 10", "blue/red" is "blue or red", "33%" is "33 percent", "(x)" is ", x"."""
    text = re.sub(r"(\d)/(\d)", r"\1 of \2", text)
    text = text.replace("/", " or ").replace("~", "about ").replace("%", " percent")
    text = re.sub(r"(\d)\.0\b", r"\1", text)
    text = re.sub(r"\b1 cards\b", "1 card", text)
    text = text.replace("<1 percent", "under 1 percent").replace(">99 percent", "over 99 percent")
    return _unbracketed(text)


def _unbracketed(text: str) -> str:
    """Brackets as commas: "New game (seed 4): ..." as "New game, seed 4: ...", "(score 5)"
    as ", score 5", "Ann's seat (played by greedy) wins" as "..., played by greedy, wins"."""
    text = re.sub(r"\s*\(([^()]*)\)(?=\s+\w)", r", \1,", text)
    return re.sub(r"\s*\(([^()]*)\)", r", \1", text).replace(", ,", ",")


def heard(line: str) -> str:
    """A line of the game log as it is said: no brackets, seconds in full ("10 s" is read
    as "10 s"), and a full stop at its end."""
    text = re.sub(r"\b(\d+(?:\.\d+)?) s\b", r"\1 seconds", _unbracketed(line))
    return text if text.endswith((".", "!", "?")) else f"{text}."


def move_line(message: Message, names: Sequence[str], *, brief: bool = False) -> str | None:
    """A message of the stream as it is said (None: nothing to say): a move's outcome with
    "you" first when it is aimed at the person ("You lost 2 orange to Cal."), every other
    line as the log has it; brief: the outcomes in as few words as will do."""
    if isinstance(message, Stolen | StealMissed) and names[message.target] == YOU:
        thief, colour = names[message.seat], COLOUR_NAMES[message.colour]
        if isinstance(message, Stolen):
            return f"You lost {message.count} {colour} to {thief}."
        if brief:
            return f"You got {colour}, {thief} missed."
        return f"Your tank took {colour}: {thief} tried to steal and missed."
    if brief and isinstance(message, Scored | ScoreMissed | Stolen | StealMissed):
        return _brief(message, names)
    line = narrate(message, names)
    return None if line is None else heard(line)


def _brief(message: Scored | ScoreMissed | Stolen | StealMissed, names: Sequence[str]) -> str:
    mover, colour = names[message.seat], COLOUR_NAMES[message.colour]
    if isinstance(message, Scored):
        return f"{mover} scored {message.count} {colour}."
    if isinstance(message, ScoreMissed):
        return f"{mover} missed, {colour}."
    victim = names[message.target]
    if isinstance(message, Stolen):
        return f"{mover} stole {possessive(victim)} {message.count} {colour}."
    return f"{mover} missed {who(victim)}, {colour}."


def turn_line(view: View, names: Sequence[str], *, brief: bool = False) -> str:
    """Another person's turn as it starts: "Bea's turn, top card red, green or blue."."""
    mover = possessive(names[view.to_move], start=True)
    turn = "extra turn" if view.extra_turn else "turn"
    if brief:
        return f"{mover} {turn}."
    return f"{mover} {turn}, {top_card(view)}."


def talk_text(talk: Talk, names: Sequence[str]) -> str:
    """A line said at the table as the log words it, without brackets or quotation marks:
    "Bea says: good luck", "Cal, watching says: hello"."""
    line = talk_line(talk, names)
    speaker, _, words = line.partition(" “")
    return f"{_unbracketed(speaker.replace(') ', '), '))}: {words.removesuffix('”')}"


def scores_line(view: View, names: Sequence[str]) -> str:
    """ "Scores: you 4, Bea 7, Cal 0; first to 10." """
    said = ", ".join(f"{who(name)} {score}" for name, score in zip(names, view.scores, strict=True))
    return f"Scores: {said}; first to {view.target}."


def seat_line(view: View, names: Sequence[str], seat: int, about: str = "") -> str:
    """One seat again: "2, Ann, greedy bot: score 4, tank 2 blue and 1 red."."""
    place = f"{seat + 1}, {who(names[seat])}{f', {about}' if about else ''}"
    return f"{place}: score {view.scores[seat]}, tank {tank_text(view, seat)}."


def table_lines(
    view: View,
    names: Sequence[str],
    about: Sequence[str] = (),
    *,
    now: str,
) -> list[str]:
    """The whole table again: the pile, then each seat's score and tank (``about``: a word
    more on each seat, such as a bot's level or a person's connection), then ``now``: where
    the game stands (whose turn, a card being turned, the end)."""
    lines = [
        f"{plural(view.turn, 'move')} played, {plural(view.pile_size, 'card')} left, "
        f"first to {view.target}."
    ]
    for seat in range(len(names)):
        lines.append(seat_line(view, names, seat, about[seat] if seat < len(about) else ""))
    lines.append(now)
    return lines


def result_lines(
    over: GameOver,
    names: Sequence[str],
    seed: int | None = None,
    *,
    played_on: Mapping[int, str] | None = None,
) -> list[str]:
    """The end, as the game-over screen has it: who won and why, every seat's score and
    tank from the first, the moves played and the seed.  ``played_on``: per seat whose
    person left, the bot that played it on (its result is the seat's: ``table.credit``)."""
    # "Your seat (played by greedy)" stands for a name: inside a sentence, "your seat".
    credited = [
        name.replace("Your seat", "your seat") for name in credited_names(names, played_on or {})
    ]
    winners = [credited[s] for s in over.winners]
    best = over.scores[over.winners[0]]
    if len(winners) > 1:
        headline = f"Game over: the draw pile ran out; {join_names(winners)} share the win"
    else:
        wins = "you win" if winners[0] == YOU else f"{winners[0]} wins"
        how = "" if over.reason == "target" else "; the draw pile ran out"
        headline = f"Game over: {wins} with {plural(best, 'scored card')}{how}"
    lines = [_unbracketed(f"{headline}.")]
    if over.scores.count(best) > 1:  # a tie on scores: the tiebreak said
        lines.append(_unbracketed(reason_text(over, credited)))
    left = left_note(names, played_on or {})
    if left:
        lines.append(left)
    order = sorted(range(len(names)), key=lambda s: (-over.scores[s], -over.tank_sizes[s], s))
    lines.append("Scores: " + ", ".join(f"{who(names[s])} {over.scores[s]}" for s in order) + ".")
    lines.append(
        "Tanks: " + ", ".join(f"{who(names[s])} {over.tank_sizes[s]}" for s in order) + "."
    )
    said = seed_words(seed)
    deal = "" if said is None else f", seed {said}"
    lines.append(f"{plural(over.turns, 'move')}{deal}.")
    return lines


def ratings_text(changes: Sequence[tuple[str, int, int]]) -> str:
    """ "Rating: you 1,500 to 1,523, up 23." ("" for none)."""
    if not changes:
        return ""
    moves = "; ".join(f"{who(name)} {_change(before, after)}" for name, before, after in changes)
    return f"Rating{'s' if len(changes) > 1 else ''}: {moves}."


def _change(before: int, after: int) -> str:
    moved = f", {'up' if after > before else 'down'} {abs(after - before):,}"
    return f"{before:,} to {after:,}{moved if after != before else ''}"


def join_or(words: Sequence[str]) -> str:
    """ "2", "2 or 3", "2, 3 or 4"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"
