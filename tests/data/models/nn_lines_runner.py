"""nn_lines.py run from another file of its folder (as llama_3_2_1b.py runs llama_mlc.py):
its operators' lines are still nn_lines.py's."""

import runpy
from pathlib import Path

mod = runpy.run_path(str(Path(__file__).with_name("nn_lines.py")), run_name="nn_lines")["mod"]
