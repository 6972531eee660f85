"""Board profiles: where the playing surface, the points, the bar and the trays are in the image."""
