"""One table's game as a state machine fed by events; the record, replay and exports."""
