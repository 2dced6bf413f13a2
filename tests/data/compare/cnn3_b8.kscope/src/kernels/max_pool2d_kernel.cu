#include "../tvm_prelude.cuh"
extern "C" __global__ void __launch_bounds__(1024) max_pool2d_kernel(float* __restrict__ lv7_ptr, float* __restrict__ pool_max_ptr) {
  int cse_v1 = (((int)blockIdx.x) / 49);
  int cse_v2 = ((((int)blockIdx.x) * 1024) + ((int)threadIdx.x));
  int cse_v3 = ((((((int)blockIdx.x) % 49) * 64) + (((int)threadIdx.x) >> 4)) / 49);
  int cse_v4 = ((((((int)blockIdx.x) / 49) * 50176) + (((((((int)blockIdx.x) % 49) * 64) + (((int)threadIdx.x) >> 4)) / 49) * 784)) + (((((int)blockIdx.x) * 1024) + ((int)threadIdx.x)) % 784));
  pool_max_ptr[((((((int)blockIdx.x) / 49) * 50176) + (((((((int)blockIdx.x) % 49) * 64) + (((int)threadIdx.x) >> 4)) / 49) * 784)) + (((((int)blockIdx.x) * 1024) + ((int)threadIdx.x)) % 784))] = -0x1.fffffep+127f/*-3.402823e+38*/;
  for (int ax4 = 0; ax4 < 2; ++ax4) {
    for (int ax5 = 0; ax5 < 2; ++ax5) {
      pool_max_ptr[((((((int)blockIdx.x) / 49) * 50176) + (((((((int)blockIdx.x) % 49) * 64) + (((int)threadIdx.x) >> 4)) / 49) * 784)) + (((((int)blockIdx.x) * 1024) + ((int)threadIdx.x)) % 784))] = max(pool_max_ptr[((((((int)blockIdx.x) / 49) * 50176) + (((((((int)blockIdx.x) % 49) * 64) + (((int)threadIdx.x) >> 4)) / 49) * 784)) + (((((int)blockIdx.x) * 1024) + ((int)threadIdx.x)) % 784))], lv7_ptr[(((((((((int)blockIdx.x) / 49) * 200704) + (((((((int)blockIdx.x) % 49) * 64) + (((int)threadIdx.x) >> 4)) / 49) * 3136)) + (((((((int)blockIdx.x) * 256) + (((int)threadIdx.x) >> 2)) % 196) / 7) * 112)) + (ax4 * 56)) + ((((((int)blockIdx.x) * 1024) + ((int)threadIdx.x)) % 28) * 2)) + ax5)]);
    }
  }
}
