"""The cluster: nodes of one server sharing its tables over Redis.

``membership`` is this node's place among the others (its heartbeat, the
leases on the tables it runs, the messages between nodes, ``node_messages``);
``links`` relays a connection held on one node to the table another runs;
``redis_lane`` carries the many small Redis commands; ``outages`` says what
Redis (or the store) raises when it is out of reach.  It imports of the rest
of ``net`` only what it relays, the protocol: never the server, nor the client.
"""
