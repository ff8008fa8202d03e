"""What both front ends stand on: a table followed, and what a person following it is shown.

The app (``mantis.tui``) and the line mode (``mantis.lines``) show the same
tables in two ways; everything they would otherwise each do their own way
is here, once, and imports neither of them (nor Textual):

- ``live_game``: a game followed live at a person's pace (its phases: whose
  turn it is, a card being turned, the end) and the moves of the seats
  played here, sent through ``moves`` (a local table's people, or a
  server);
- ``online_table``: one place at a server's table (its one reader and
  sender, each finished game kept once), telling each change of the table
  as a typed value with its data (``changes``);
- ``preferences``: the settings of a run, saved on change;
- ``launch``: what the commands that play read before either front end
  opens;
- the words and pictures both show: a seat's connection (``presence``), its
  rating (``seat_ratings``), another game offered (``offers``), charts
  (``charts``, ``review_chart``) and the statistics report
  (``stats_report``).
"""
