"""Where the user documentation is: ``docs/`` of the source tree, installed as the package
``kernelscope.docs`` (and inside the packaged app), so that Help > User guide works offline."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..errors import KernelscopeError

USER_GUIDE = "user-guide.md"


def user_docs() -> Path:
    """The folder holding user-guide.md, troubleshooting.md, cli.md and images/."""
    try:
        folder = Path(str(resources.files("kernelscope.docs")))
    except ModuleNotFoundError:
        folder = Path()
    if not (folder / USER_GUIDE).is_file():
        raise KernelscopeError(
            "the user guide is not installed with this kernelscope",
            hint="reinstall kernelscope (bash scripts/start.sh), or read docs/user-guide.md "
            "in kernelscope's source",
        )
    return folder
