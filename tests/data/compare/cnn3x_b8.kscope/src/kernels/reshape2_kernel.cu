#include "../tvm_prelude.cuh"
extern "C" __global__ void __launch_bounds__(1024) reshape2_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ b2_ptr) {
  if (((int)threadIdx.x) < 64) {
    T_reshape_ptr[((int)threadIdx.x)] = b2_ptr[((int)threadIdx.x)];
  }
}
