"""The table's widgets: tanks, score piles, the draw pile, the log and the banners."""
