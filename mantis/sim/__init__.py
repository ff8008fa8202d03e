"""Headless play: the simulator and the tournament runner."""
