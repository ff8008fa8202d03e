"""Plain HTTP beside the WebSocket: ``/status``, ``/tables``, ``/leaderboard``, and
``/metrics`` on a listener of its own."""
