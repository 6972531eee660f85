"""The Flask dashboard: live table, club view, calibration wizard, history."""
