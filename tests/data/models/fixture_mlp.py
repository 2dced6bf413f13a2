"""The mlp fixture's model: Linear(1024->4096) -> ReLU -> Linear(4096->1000) -> softmax, batch 32."""

from tvm.relax.frontend import nn


class MLP(nn.Module):
    def __init__(self) -> None:
        self.fc1 = nn.Linear(1024, 4096)
        self.fc2 = nn.Linear(4096, 1000)

    def forward(self, x: nn.Tensor) -> nn.Tensor:
        return nn.softmax(self.fc2(nn.relu(self.fc1(x))), axis=-1)


mod, _ = MLP().export_tvm({"forward": {"x": nn.spec.Tensor((32, 1024), "float32")}})
