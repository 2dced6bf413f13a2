"""Defines example inputs but no model: `kernelscope profile-torch` names what is missing."""

example_inputs = ()
