"""Online play: the table server, its protocol, and the client that reaches it.

``server.TableServer`` runs tables (``room.Room``) with the table driver and
keeps them in SQLite; ``protocol`` is every message either side may send;
``client.TableConnection`` is one app's connection to a server table, reconnecting by
itself.  Nothing here imports the UI.
"""
