"""The docks: kernel list, hot lines and the kernel DB browser."""
