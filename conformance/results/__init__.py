"""The results of a run: the typed records and the files they are written to."""
