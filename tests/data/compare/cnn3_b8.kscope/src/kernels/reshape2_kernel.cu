#include "../tvm_prelude.cuh"
extern "C" __global__ void __launch_bounds__(1024) reshape2_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ lv13_ptr) {
  if (((int)threadIdx.x) < 512) {
    T_reshape_ptr[((int)threadIdx.x)] = lv13_ptr[((int)threadIdx.x)];
  }
}
