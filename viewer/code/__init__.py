"""The code panes: a kernel's CUDA source and its SASS, side by side, with metric bars."""
