"""The app's widgets: the table's (tanks, score piles, the draw pile, the log, the banners),
a chart, and a select shown chosen from the start."""
