"""Pure game logic: positions, variants, legal turns, results, the cube, matches. No I/O."""
