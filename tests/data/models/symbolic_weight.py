"""A Relax function whose weight has a symbolic shape: no value can be made for it unless
its variable is bound (``--shape m=N``) or weights stay runtime inputs."""

from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), w: R.Tensor(("m", 4), "float32")) -> R.Tensor(
        ("n", "m"), "float32"
    ):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            y = R.matmul(x, R.permute_dims(w))
            R.output(y)
        return y
