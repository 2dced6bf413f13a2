"""The tuning child: ``python -m kernelscope.core.tuning PLAN_JSON`` (see ``child``)."""

import sys

from ..process import child_main
from .child import child_tune

child_main(lambda channel: child_tune(channel, sys.argv[1]))
