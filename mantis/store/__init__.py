"""The table server's store: what a server keeps for good (tables, seats, games, moves and
players with their ratings), behind one interface (``tables_interface.TableStore``) on
SQLite or PostgreSQL.  What the app keeps in the player's home is ``mantis.home``."""
