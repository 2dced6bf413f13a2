"""A Llama-3.2-1B-shaped decoder (16 layers, hidden 2048, 32/8 heads, float16, vocabulary
128256) written the MLC-LLM way: the model of tests/data/models/llama_mlc.py in the size the
LLM figures are measured at. Its weights are random, made on the GPU host (kernelscope records
their shapes; 2.5 GB of float16 would not travel)."""

import runpy
from pathlib import Path

_defs = runpy.run_path(
    str(Path(__file__).resolve().parents[2] / "tests" / "data" / "models" / "llama_mlc.py"),
    run_name="llama_defs",
)
mod, named_params = _defs["export"](_defs["LLAMA_3_2_1B"])
