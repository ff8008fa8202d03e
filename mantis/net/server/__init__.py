"""The table server: its core, its rooms (``room``), its limits (``limits``) and its plain
HTTP pages (``pages``).

The core admits connections (``server``), acts on their first message
(``openings``) and on what they ask at a table (``requests``), sends
(``sending``), keeps what spans tables (``directory``) and, on a cluster,
its node's part (``cluster_node``).
"""
