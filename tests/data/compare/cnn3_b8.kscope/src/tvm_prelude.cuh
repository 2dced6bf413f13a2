#pragma once

#ifdef __CUDACC_RTC__
  #include <cuda/std/cstdint>
  using cuda::std::uint8_t;
  using cuda::std::uint16_t;
  using cuda::std::uint32_t;
  using cuda::std::uint64_t;
  using cuda::std::int8_t;
  using cuda::std::int16_t;
  using cuda::std::int32_t;
  using cuda::std::int64_t;

  #include <cuda/std/type_traits>
  namespace std {
    using cuda::std::is_same;
    using cuda::std::is_same_v;
    using cuda::std::is_integral;
    using cuda::std::is_signed;
    using cuda::std::is_unsigned;
    using cuda::std::is_floating_point;
    using cuda::std::enable_if;
    using cuda::std::conditional;
  }

  // NVRTC uses asm/volatile instead of __asm__/__volatile__ (gcc extension).
  #ifndef __asm__
  #define __asm__ asm
  #endif
  #ifndef __volatile__
  #define __volatile__ volatile
  #endif
#else
  #include <cstdint>
  #include <type_traits>
  #include <cuda.h>
#endif

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)
#define __shfl_sync(mask, var, lane, width) \
        __shfl((var), (lane), (width))

#define __shfl_down_sync(mask, var, offset, width) \
        __shfl_down((var), (offset), (width))

#define __shfl_up_sync(mask, var, offset, width) \
        __shfl_up((var), (offset), (width))
#endif

#if (((__CUDACC_VER_MAJOR__ == 11) && (__CUDACC_VER_MINOR__ >= 4)) || \
     (__CUDACC_VER_MAJOR__ > 11))
#define TVM_ENABLE_L2_PREFETCH 1
#else
#define TVM_ENABLE_L2_PREFETCH 0
#endif

#ifdef _WIN32
  using uint = unsigned int;
  using uchar = unsigned char;
  using ushort = unsigned short;
  using int64_t = long long;
  using uint64_t = unsigned long long;
#else
  #define uint unsigned int
  #define uchar unsigned char
  #define ushort unsigned short
#endif
extern "C" __global__ void __launch_bounds__(128) fused_conv2d1_add1_relu1_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ lv3_ptr, float* __restrict__ lv5_ptr, float* __restrict__ w2_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d2_add2_relu2_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ lv10_ptr, float* __restrict__ lv8_ptr, float* __restrict__ w3_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d_add_relu_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ lv1_ptr, float* __restrict__ w1_ptr, float* __restrict__ x_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_matmul_add3_kernel(float* __restrict__ T_add_intermediate_ptr, float* __restrict__ b4_ptr, float* __restrict__ lv14_ptr, float* __restrict__ lv15_ptr);
extern "C" __global__ void __launch_bounds__(1024) max_pool2d_kernel(float* __restrict__ lv7_ptr, float* __restrict__ pool_max_ptr);
extern "C" __global__ void __launch_bounds__(512) mean_kernel(float* __restrict__ T_divide_ptr, float* __restrict__ lv12_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ b1_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape1_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ b2_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape2_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ lv13_ptr);
extern "C" __global__ void __launch_bounds__(1024) transpose_kernel(float* __restrict__ T_transpose_ptr, float* __restrict__ w4_ptr);
