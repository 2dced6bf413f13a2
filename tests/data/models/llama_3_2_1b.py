"""llama_mlc.py's Llama in Llama-3.2-1B's shape (16 layers, hidden 2048, 32/8 heads,
vocabulary 128256, float16; 3 GB of weights): too big to carry, so a build records that
the GPU host makes its random weights, seeded."""

import runpy
from pathlib import Path

_defs = runpy.run_path(str(Path(__file__).with_name("llama_mlc.py")), run_name="llama_defs")
mod, named_params = _defs["export"](_defs["LLAMA_3_2_1B"])
