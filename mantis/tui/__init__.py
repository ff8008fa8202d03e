"""The full-screen terminal app (Textual): setup, the table, help and settings."""
