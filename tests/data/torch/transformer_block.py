"""The PyTorch twin of tests/data/models/transformer_block.py for `kernelscope profile-torch`
(the torch.compile side of tests/data/inductor/): a pre-norm transformer encoder block,
LayerNorm -> QKV Linear -> softmax(QK^T/sqrt(d)) V -> Linear + residual, LayerNorm -> Linear ->
GELU -> Linear + residual; batch 8, sequence 128, width 256, 4 heads, MLP 1024, fp32, eval.
tests/data/inductor's run loaded the weights of the TVM build (``params.npz``); set
``KS_TRANSFORMER_PARAMS`` to such a file to do the same, else the weights are seeded."""

import os

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

B, S, D, H, FF = 8, 128, 256, 4, 1024


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.fc1, self.fc2 = nn.Linear(D, FF), nn.Linear(FF, D)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        qkv = self.qkv(self.ln1(x)).reshape(B, S, 3, H, D // H).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        att = torch.softmax(q @ k.transpose(-1, -2) * (1.0 / (D // H) ** 0.5), dim=-1) @ v
        x = x + self.proj(att.transpose(1, 2).reshape(B, S, D))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


torch.manual_seed(0)
model = Block().eval()
if os.environ.get("KS_TRANSFORMER_PARAMS"):
    with np.load(os.environ["KS_TRANSFORMER_PARAMS"]) as values:
        model.load_state_dict({k: torch.from_numpy(values[k]) for k in values.files})


def example_inputs():
    return (torch.randn(B, S, D),)
