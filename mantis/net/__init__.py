"""Online play: the table server, its protocol, the client that reaches it, and the cluster.

Four parts, each a package: ``protocol`` is every message either side may
send and which version has it; ``client.TableConnection`` is one app's
connection to a server table, reconnecting by itself; ``server.TableServer``
runs tables (``server.room.Room``) with the table driver and keeps them in
the store it is handed (SQLite, or PostgreSQL for a cluster); ``cluster``
lets nodes of one server share its tables over Redis.  The protocol imports
neither the client nor the server; the client never imports the server nor
the cluster; the cluster imports only the protocol (pyproject's import
contracts).  Nothing here imports the UI.
"""
