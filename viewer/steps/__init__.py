"""The Steps pane: the step ledger of an LLM's profile (``kernelscope steps``) in a dock."""

from .pane import StepsPane, install_steps_pane

__all__ = ["StepsPane", "install_steps_pane"]
