"""Three identical Linear+ReLU layers: TVM builds one kernel for them and launches it three
times, so a forward pass launches more kernels than the module has (as MobileNetV2 does)."""

from tvm.relax.frontend import nn


class RepeatedLayers(nn.Module):
    def __init__(self) -> None:
        self.fc1 = nn.Linear(64, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 64)
        self.head = nn.Linear(64, 10)

    def forward(self, x: nn.Tensor) -> nn.Tensor:
        x = nn.relu(self.fc1(x))
        x = nn.relu(self.fc2(x))
        x = nn.relu(self.fc3(x))
        return self.head(x)


mod, _ = RepeatedLayers().export_tvm({"forward": {"x": nn.spec.Tensor((4, 64), "float32")}})
