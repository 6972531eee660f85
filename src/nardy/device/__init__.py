"""The hardware edges: the dice cup driver and its emulator, and frame sources."""
