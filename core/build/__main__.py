"""The build child: ``python -m kernelscope.core.build PLAN_JSON STAGE`` fills the staging
folder STAGE as ``pipeline.build_in_child`` planned it; ``python -m kernelscope.core.build -``
imports TVM first and reads the plan and the stage from stdin (``pipeline.BuildChild``). See
``process.child_main``."""

import sys

from ..process import child_main
from .pipeline import child_build, child_build_from_stdin

if sys.argv[1:] == ["-"]:
    child_main(child_build_from_stdin)
child_main(lambda channel: child_build(channel, sys.argv[1], sys.argv[2]))
