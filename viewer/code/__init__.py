"""code."""
