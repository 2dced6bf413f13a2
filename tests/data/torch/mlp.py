"""A small MLP for `kernelscope profile-torch`: `model` and `example_inputs` at module level."""

import torch
from torch import nn

model = nn.Sequential(
    nn.Linear(256, 512),
    nn.GELU(),
    nn.LayerNorm(512),
    nn.Linear(512, 128),
    nn.Softmax(dim=-1),
)


def example_inputs():
    return (torch.randn(64, 256),)
