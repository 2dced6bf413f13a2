#include "../tvm_prelude.cuh"
extern "C" __global__ void __launch_bounds__(1024) reshape_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ b1_ptr) {
  if (((int)threadIdx.x) < 32) {
    T_reshape_ptr[((int)threadIdx.x)] = b1_ptr[((int)threadIdx.x)];
  }
}
