"""Frames in, observations out: checkers, bar, trays, dice, cube, and whether a frame is usable."""
