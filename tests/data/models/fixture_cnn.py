"""The cnn fixture's model: Conv2d(3->32,3x3) -> ReLU -> Conv2d(32->64,3x3) -> ReLU -> Linear(64*56*56->10), batch 8."""

from tvm.relax.frontend import nn


class CNN(nn.Module):
    def __init__(self) -> None:
        self.c1 = nn.Conv2D(3, 32, 3, padding=1)
        self.c2 = nn.Conv2D(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 56 * 56, 10)

    def forward(self, x: nn.Tensor) -> nn.Tensor:
        h = nn.relu(self.c2(nn.relu(self.c1(x))))
        return self.fc(h.reshape(8, 64 * 56 * 56))


mod, _ = CNN().export_tvm({"forward": {"x": nn.spec.Tensor((8, 3, 56, 56), "float32")}})
