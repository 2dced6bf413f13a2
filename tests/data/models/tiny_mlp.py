"""A tiny model as a Relax IRModule, the second model format kernelscope builds."""

from tvm.relax.frontend import nn


class TinyMLP(nn.Module):
    def __init__(self) -> None:
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x: nn.Tensor) -> nn.Tensor:
        return nn.softmax(self.fc2(nn.relu(self.fc1(x))), axis=-1)


mod, _ = TinyMLP().export_tvm({"forward": {"x": nn.spec.Tensor((4, 64), "float32")}})
