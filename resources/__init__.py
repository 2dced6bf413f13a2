"""Files kernelscope ships, read with ``importlib.resources``: the icons, the desktop entry,
the AppStream metadata and MIME types that a desktop install puts in place, and the demo
(a model and a real H200 profile of its build)."""
