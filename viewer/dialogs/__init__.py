"""Dialogs: Build & Profile, errors, export summaries."""
