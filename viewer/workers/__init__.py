"""Long jobs off the GUI thread: opening documents, building and profiling, exporting."""
