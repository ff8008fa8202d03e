"""One table on the server (``room``) and the parts of its work, each a module."""
