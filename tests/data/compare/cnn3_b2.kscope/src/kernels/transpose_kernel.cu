#include "../tvm_prelude.cuh"
extern "C" __global__ void __launch_bounds__(1024) transpose_kernel(float* __restrict__ T_transpose_ptr, float* __restrict__ w4_ptr) {
  if (((int)threadIdx.x) < 640) {
    T_transpose_ptr[((int)threadIdx.x)] = w4_ptr[(((((int)threadIdx.x) % 10) * 64) + (((int)threadIdx.x) / 10))];
  }
}
