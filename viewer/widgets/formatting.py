"""How numbers look in tables: core's one formatter, so the window and the CLI agree."""

from kernelscope.core.formatting import (
    format_compact,
    format_dims,
    format_number,
    format_signed,
    format_us,
)

__all__ = ["format_compact", "format_dims", "format_number", "format_signed", "format_us"]
