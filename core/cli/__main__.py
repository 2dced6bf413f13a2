"""``python -m kernelscope.core.cli``: the same as the ``kernelscope`` command."""

import sys

from .main import main

sys.exit(main())
