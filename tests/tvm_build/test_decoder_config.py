"""The decoder configuration a torch.compile twin is made from (``decoder_config``): read from
the model's Relax module (the KV cache's creation call, the decode function's input, logits
and weights), never typed a second time. The expected values are the model file's own
``Config`` objects, which built the IR the reader reads."""

from __future__ import annotations

import runpy
from dataclasses import asdict
from pathlib import Path

import pytest
from paths_support import DATA

from kernelscope.core.build.decoder_config import read_decoder_config
from kernelscope.core.errors import KernelscopeError

MODELS = DATA / "models"


def _expected(name: str) -> dict:
    defs = runpy.run_path(str(MODELS / "llama_mlc.py"), run_name="llama_defs")
    cfg = asdict(defs[name])
    cfg["head_dim"] = defs[name].head_dim
    return cfg


@pytest.mark.parametrize(
    ("model", "config"), [("llama_mlc.py", "TINY"), ("llama_3_2_1b.py", "LLAMA_3_2_1B")]
)
def test_the_configuration_is_read_from_the_ir(model: str, config: str) -> None:
    found = read_decoder_config(MODELS / model)
    expected = _expected(config)
    for key in ("vocab", "hidden", "intermediate", "layers", "heads", "kv_heads", "head_dim",
                "rope_theta", "dtype"):  # fmt: skip
        assert found[key] == expected[key], key
    assert found["rms_eps"] == pytest.approx(1e-5)  # the file's rms_norm epsilon


def test_a_model_without_a_paged_kv_cache_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KernelscopeError, match="creates no paged KV cache") as err:
        read_decoder_config(MODELS / "tiny_mlp.py")
    assert "TIRPagedKVCache" in err.value.hint
