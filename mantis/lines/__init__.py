"""The line mode: Mantis played in lines of text, for screen readers and braille displays.

A second front end beside the Textual app (``mantis.tui``), on the same
layer (``mantis.follow``: the followed game and its phases, the followed
online table, the settings of a run, the words both say), table driver,
public stream, seats, bots, the app's files and online client; it never imports the
app, nor the app it.  It never moves the cursor, clears the screen or
colours a word: every thing that happens is one line appended to the
output, worded to be heard once, and the person answers at a ``> ``
prompt.  It never imports Textual (an import contract in ``pyproject.toml``
says so), so it starts at once.

``console`` writes the lines and reads the typed ones; ``wording`` says a
position, a decision and a move; ``commands`` reads what was typed;
``live_table`` follows a table being played (the stream at a person's
pace, the question, the commands every table has); ``local`` plays here,
``online`` at a server's table, ``waiting_room`` before its game starts;
``turn_clock`` says a person's time; ``help`` lists the commands that
work where the person is; ``replay`` and ``review`` read a finished game,
``stats`` a person's figures; ``launch`` is where the command line comes
in.
"""
