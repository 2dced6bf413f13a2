"""The ``kernelscope`` command line: one module per feature's commands, each calling that
feature's public functions."""
