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
__forceinline__ __device__ void tvm_builtin_ptx_cp_async_wait_group_async_wait_group_0() {
  asm volatile("cp.async.wait_group 0;" :  :  : "memory");
}
__forceinline__ __device__ void tvm_builtin_ptx_cp_async_wait_group_async_wait_group_1() {
  asm volatile("cp.async.wait_group 1;" :  :  : "memory");
}
__forceinline__ __device__ void tvm_builtin_ptx_cp_async_wait_group_async_wait_group_2() {
  asm volatile("cp.async.wait_group 2;" :  :  : "memory");
}
__forceinline__ __device__ void tvm_builtin_ptx_cp_async_commit_group_async_commit_group() {
  asm volatile("cp.async.commit_group;" :  : );
}
extern "C" __global__ void __launch_bounds__(78) fused_conv2d11_add6_relu6_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_9_expand3x3_weight_ptr, float* __restrict__ lv62_ptr, float* __restrict__ lv67_ptr);
extern "C" __global__ void __launch_bounds__(104) fused_conv2d15_add8_relu8_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_11_expand3x3_weight_ptr, float* __restrict__ lv88_ptr, float* __restrict__ lv93_ptr);
extern "C" __global__ void __launch_bounds__(1024) concatenate_kernel(float* __restrict__ T_concat_ptr, float* __restrict__ lv15_ptr, float* __restrict__ lv16_ptr);
extern "C" __global__ void __launch_bounds__(1024) concatenate1_kernel(float* __restrict__ T_concat_ptr, float* __restrict__ lv42_ptr, float* __restrict__ lv43_ptr);
extern "C" __global__ void __launch_bounds__(1024) concatenate2_kernel(float* __restrict__ T_concat_ptr, float* __restrict__ lv69_ptr, float* __restrict__ lv70_ptr);
extern "C" __global__ void __launch_bounds__(1024) concatenate3_kernel(float* __restrict__ T_concat_ptr, float* __restrict__ lv95_ptr, float* __restrict__ lv96_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d10_add6_relu6_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_9_expand1x1_weight_ptr, float* __restrict__ lv62_ptr, float* __restrict__ lv64_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d12_add5_relu5_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_10_squeeze_weight_ptr, float* __restrict__ lv71_ptr, float* __restrict__ lv73_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d13_add7_relu7_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_11_squeeze_weight_ptr, float* __restrict__ lv84_ptr, float* __restrict__ lv86_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d14_add8_relu8_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_11_expand1x1_weight_ptr, float* __restrict__ lv88_ptr, float* __restrict__ lv90_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d16_add7_relu7_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_12_squeeze_weight_ptr, float* __restrict__ lv97_ptr, float* __restrict__ lv99_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d17_add9_relu9_kernel(float* __restrict__ classifier_1_weight_ptr, float* __restrict__ compute_intermediate_ptr, float* __restrict__ lv110_ptr, float* __restrict__ lv112_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d1_add1_relu1_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_3_squeeze_weight_ptr, float* __restrict__ lv4_ptr, float* __restrict__ lv6_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d2_add2_relu2_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_3_expand1x1_weight_ptr, float* __restrict__ lv10_ptr, float* __restrict__ lv8_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d3_add2_relu2_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_3_expand3x3_weight_ptr, float* __restrict__ lv13_ptr, float* __restrict__ lv8_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d4_add1_relu1_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_4_squeeze_weight_ptr, float* __restrict__ lv17_ptr, float* __restrict__ lv19_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d5_add3_relu3_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_6_squeeze_weight_ptr, float* __restrict__ lv31_ptr, float* __restrict__ lv33_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d6_add4_relu4_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_6_expand1x1_weight_ptr, float* __restrict__ lv35_ptr, float* __restrict__ lv37_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d7_add4_relu4_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_6_expand3x3_weight_ptr, float* __restrict__ lv35_ptr, float* __restrict__ lv40_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d8_add3_relu3_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_7_squeeze_weight_ptr, float* __restrict__ lv44_ptr, float* __restrict__ lv46_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d9_add5_relu5_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_9_squeeze_weight_ptr, float* __restrict__ lv58_ptr, float* __restrict__ lv60_ptr);
extern "C" __global__ void __launch_bounds__(128) fused_conv2d_add_relu_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_0_weight_ptr, float* __restrict__ input_ptr, float* __restrict__ lv1_ptr);
extern "C" __global__ void __launch_bounds__(1024) max_pool2d_kernel(float* __restrict__ lv3_ptr, float* __restrict__ pool_max_ptr);
extern "C" __global__ void __launch_bounds__(1024) max_pool2d1_kernel(float* __restrict__ lv30_ptr, float* __restrict__ pool_max_ptr);
extern "C" __global__ void __launch_bounds__(1024) max_pool2d2_kernel(float* __restrict__ lv57_ptr, float* __restrict__ pool_max_ptr);
extern "C" __global__ void __launch_bounds__(128) mean_kernel(float* __restrict__ T_divide_ptr, float* __restrict__ lv114_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ features_0_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape1_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ features_3_squeeze_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape2_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ features_6_squeeze_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape3_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ features_6_expand1x1_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape4_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ features_9_squeeze_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape5_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ features_9_expand1x1_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape6_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ features_11_expand1x1_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape7_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ classifier_1_bias_ptr);
extern "C" __global__ void __launch_bounds__(1024) reshape8_kernel(float* __restrict__ T_reshape_ptr, float* __restrict__ lv115_ptr);
