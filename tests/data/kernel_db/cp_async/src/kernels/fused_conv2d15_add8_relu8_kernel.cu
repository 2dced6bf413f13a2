#include "../tvm_prelude.cuh"
extern "C" __global__ void __launch_bounds__(104) fused_conv2d15_add8_relu8_kernel(float* __restrict__ compute_intermediate_ptr, float* __restrict__ features_11_expand3x3_weight_ptr, float* __restrict__ lv88_ptr, float* __restrict__ lv93_ptr) {
  alignas(64) float conv2d_nchw_intermediate_local_ptr[2];
  __shared__ alignas(64) float pad_temp_shared_ptr[270];
  __shared__ alignas(64) float features_11_expand3x3_weight_shared_ptr[864];
  conv2d_nchw_intermediate_local_ptr[0] = 0x0p+0f/*0.000000e+00*/;
  conv2d_nchw_intermediate_local_ptr[1] = 0x0p+0f/*0.000000e+00*/;
  int cse_v1 = (((int)blockIdx.x) % 13);
  int cse_v2 = (((int)threadIdx.x) % 5);
  int cse_v3 = (((int)threadIdx.x) * 3);
  int cse_v4 = (((int)blockIdx.x) / 13);
  int cse_v5 = (((int)threadIdx.x) * 2);
  int cse_v10 = ((((int)threadIdx.x) % 15) / 5);
  int cse_v11 = ((((int)threadIdx.x) / 15) * 169);
  int cse_v12 = ((((int)blockIdx.x) % 13) * 13);
  int cse_v13 = ((((int)threadIdx.x) % 5) * 3);
  int cse_v14 = ((((int)blockIdx.x) / 13) * 9216);
  int cse_v15 = ((((int)threadIdx.x) % 9) * 2);
  int cse_v53 = (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13));
  int cse_v54 = (((((int)threadIdx.x) % 15) / 5) * 13);
  int cse_v55 = (((((int)blockIdx.x) / 13) * 9216) + ((((int)threadIdx.x) / 9) * 576));
  int cse_v56 = (((((int)threadIdx.x) * 2) + 10) % 18);
  int cse_v60 = ((((((int)blockIdx.x) / 13) * 9216) + ((((int)threadIdx.x) / 9) * 576)) + ((((int)threadIdx.x) % 9) * 2));
  int cse_v61 = (((((int)blockIdx.x) / 13) * 9216) + (((((int)threadIdx.x) + 104) / 9) * 576));
  int cse_v81 = ((((((int)blockIdx.x) / 13) * 9216) + (((((int)threadIdx.x) + 104) / 9) * 576)) + (((((int)threadIdx.x) * 2) + 10) % 18));
  int cse_v83 = (((((((int)threadIdx.x) / 15) * 169) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3));
  if (((int)threadIdx.x) < 30) {
    float condval;
    if (((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) && (1 <= (((int)threadIdx.x) % 5))) {
      condval = lv88_ptr[((((((((int)threadIdx.x) / 15) * 169) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) - 14)];
    } else {
      condval = 0x0p+0f/*0.000000e+00*/;
    }
    pad_temp_shared_ptr[(((int)threadIdx.x) * 3)] = condval;
    float condval_1;
    if ((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) {
      condval_1 = lv88_ptr[((((((((int)threadIdx.x) / 15) * 169) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) - 13)];
    } else {
      condval_1 = 0x0p+0f/*0.000000e+00*/;
    }
    pad_temp_shared_ptr[((((int)threadIdx.x) * 3) + 1)] = condval_1;
    float condval_2;
    if (((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) && ((((int)threadIdx.x) % 5) < 4)) {
      condval_2 = lv88_ptr[((((((((int)threadIdx.x) / 15) * 169) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) - 12)];
    } else {
      condval_2 = 0x0p+0f/*0.000000e+00*/;
    }
    pad_temp_shared_ptr[((((int)threadIdx.x) * 3) + 2)] = condval_2;
  }
  *(float2*)(features_11_expand3x3_weight_shared_ptr + (((int)threadIdx.x) * 2)) = *(float2*)(features_11_expand3x3_weight_ptr + ((((((int)blockIdx.x) / 13) * 9216) + ((((int)threadIdx.x) / 9) * 576)) + ((((int)threadIdx.x) % 9) * 2)));
  if (((int)threadIdx.x) < 40) {
    *(float2*)(features_11_expand3x3_weight_shared_ptr + ((((int)threadIdx.x) * 2) + 208)) = *(float2*)(features_11_expand3x3_weight_ptr + ((((((int)blockIdx.x) / 13) * 9216) + (((((int)threadIdx.x) + 104) / 9) * 576)) + (((((int)threadIdx.x) * 2) + 10) % 18)));
  }
  tvm_builtin_ptx_cp_async_commit_group_async_commit_group();
  if (((int)threadIdx.x) < 30) {
    float condval_3;
    if (((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) && (1 <= (((int)threadIdx.x) % 5))) {
      condval_3 = lv88_ptr[((((((((int)threadIdx.x) / 15) * 169) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) + 324)];
    } else {
      condval_3 = 0x0p+0f/*0.000000e+00*/;
    }
    pad_temp_shared_ptr[((((int)threadIdx.x) * 3) + 90)] = condval_3;
    float condval_4;
    if ((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) {
      condval_4 = lv88_ptr[((((((((int)threadIdx.x) / 15) * 169) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) + 325)];
    } else {
      condval_4 = 0x0p+0f/*0.000000e+00*/;
    }
    pad_temp_shared_ptr[((((int)threadIdx.x) * 3) + 91)] = condval_4;
    float condval_5;
    if (((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) && ((((int)threadIdx.x) % 5) < 4)) {
      condval_5 = lv88_ptr[((((((((int)threadIdx.x) / 15) * 169) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) + 326)];
    } else {
      condval_5 = 0x0p+0f/*0.000000e+00*/;
    }
    pad_temp_shared_ptr[((((int)threadIdx.x) * 3) + 92)] = condval_5;
  }
  *(float2*)(features_11_expand3x3_weight_shared_ptr + ((((int)threadIdx.x) * 2) + 288)) = *(float2*)(features_11_expand3x3_weight_ptr + (((((((int)blockIdx.x) / 13) * 9216) + ((((int)threadIdx.x) / 9) * 576)) + ((((int)threadIdx.x) % 9) * 2)) + 18));
  if (((int)threadIdx.x) < 40) {
    *(float2*)(features_11_expand3x3_weight_shared_ptr + ((((int)threadIdx.x) * 2) + 496)) = *(float2*)(features_11_expand3x3_weight_ptr + (((((((int)blockIdx.x) / 13) * 9216) + (((((int)threadIdx.x) + 104) / 9) * 576)) + (((((int)threadIdx.x) * 2) + 10) % 18)) + 18));
  }
  tvm_builtin_ptx_cp_async_commit_group_async_commit_group();
  int cse_v8 = (((int)threadIdx.x) % 13);
  int cse_v9 = (((int)threadIdx.x) / 13);
  int cse_v17 = ((((int)threadIdx.x) / 13) * 18);
  for (int rc_0_ry_0_rx_0_fused = 0; rc_0_ry_0_rx_0_fused < 30; ++rc_0_ry_0_rx_0_fused) {
    int cse_v16 = ((rc_0_ry_0_rx_0_fused + 2) % 3);
    __syncthreads();
    if (((int)threadIdx.x) < 30) {
      int cse_v62 = ((((rc_0_ry_0_rx_0_fused + 2) % 3) * 90) + (((int)threadIdx.x) * 3));
      int cse_v84 = (((((rc_0_ry_0_rx_0_fused * 338) + ((((int)threadIdx.x) / 15) * 169)) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3));
      float condval_6;
      if (((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) && (1 <= (((int)threadIdx.x) % 5))) {
        condval_6 = lv88_ptr[((((((rc_0_ry_0_rx_0_fused * 338) + ((((int)threadIdx.x) / 15) * 169)) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) + 662)];
      } else {
        condval_6 = 0x0p+0f/*0.000000e+00*/;
      }
      pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused + 2) % 3) * 90) + (((int)threadIdx.x) * 3))] = condval_6;
      float condval_7;
      if ((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) {
        condval_7 = lv88_ptr[((((((rc_0_ry_0_rx_0_fused * 338) + ((((int)threadIdx.x) / 15) * 169)) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) + 663)];
      } else {
        condval_7 = 0x0p+0f/*0.000000e+00*/;
      }
      pad_temp_shared_ptr[(((((rc_0_ry_0_rx_0_fused + 2) % 3) * 90) + (((int)threadIdx.x) * 3)) + 1)] = condval_7;
      float condval_8;
      if (((1 <= (((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13))) && ((((((int)threadIdx.x) % 15) / 5) + (((int)blockIdx.x) % 13)) < 14)) && ((((int)threadIdx.x) % 5) < 4)) {
        condval_8 = lv88_ptr[((((((rc_0_ry_0_rx_0_fused * 338) + ((((int)threadIdx.x) / 15) * 169)) + (((((int)threadIdx.x) % 15) / 5) * 13)) + ((((int)blockIdx.x) % 13) * 13)) + ((((int)threadIdx.x) % 5) * 3)) + 664)];
      } else {
        condval_8 = 0x0p+0f/*0.000000e+00*/;
      }
      pad_temp_shared_ptr[(((((rc_0_ry_0_rx_0_fused + 2) % 3) * 90) + (((int)threadIdx.x) * 3)) + 2)] = condval_8;
    }
    int cse_v6 = (rc_0_ry_0_rx_0_fused * 18);
    int cse_v63 = ((((rc_0_ry_0_rx_0_fused + 2) % 3) * 288) + (((int)threadIdx.x) * 2));
    *(float2*)(features_11_expand3x3_weight_shared_ptr + ((((rc_0_ry_0_rx_0_fused + 2) % 3) * 288) + (((int)threadIdx.x) * 2))) = *(float2*)(features_11_expand3x3_weight_ptr + ((((((((int)blockIdx.x) / 13) * 9216) + ((((int)threadIdx.x) / 9) * 576)) + (rc_0_ry_0_rx_0_fused * 18)) + ((((int)threadIdx.x) % 9) * 2)) + 36));
    if (((int)threadIdx.x) < 40) {
      *(float2*)(features_11_expand3x3_weight_shared_ptr + (((((rc_0_ry_0_rx_0_fused + 2) % 3) * 288) + (((int)threadIdx.x) * 2)) + 208)) = *(float2*)(features_11_expand3x3_weight_ptr + ((((((((int)blockIdx.x) / 13) * 9216) + (((((int)threadIdx.x) + 104) / 9) * 576)) + (rc_0_ry_0_rx_0_fused * 18)) + (((((int)threadIdx.x) * 2) + 10) % 18)) + 36));
    }
    tvm_builtin_ptx_cp_async_commit_group_async_commit_group();
    tvm_builtin_ptx_cp_async_wait_group_async_wait_group_2();
    __syncthreads();
    int cse_v7 = (rc_0_ry_0_rx_0_fused % 3);
    int cse_v57 = (((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13));
    int cse_v58 = (((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18));
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[(((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13))] * features_11_expand3x3_weight_shared_ptr[(((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18))]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[(((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13))] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 144)]));
    int cse_v64 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 1);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 1)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 1)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 1)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 145)]));
    int cse_v65 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 2);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 2)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 2)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 2)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 146)]));
    int cse_v66 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 45);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 45)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 9)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 45)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 153)]));
    int cse_v67 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 46);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 46)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 10)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 46)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 154)]));
    int cse_v68 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 47);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 47)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 11)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 47)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 155)]));
    int cse_v69 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 15);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 15)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 3)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 15)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 147)]));
    int cse_v70 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 16);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 16)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 4)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 16)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 148)]));
    int cse_v71 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 17);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 17)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 5)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 17)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 149)]));
    int cse_v72 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 60);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 60)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 12)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 60)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 156)]));
    int cse_v73 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 61);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 61)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 13)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 61)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 157)]));
    int cse_v74 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 62);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 62)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 14)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 62)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 158)]));
    int cse_v75 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 30);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 30)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 6)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 30)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 150)]));
    int cse_v76 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 31);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 31)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 7)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 31)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 151)]));
    int cse_v77 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 32);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 32)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 8)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 32)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 152)]));
    int cse_v78 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 75);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 75)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 15)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 75)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 159)]));
    int cse_v79 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 76);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 76)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 16)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 76)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 160)]));
    int cse_v80 = ((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 77);
    conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 77)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 17)]));
    conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 90) + (((int)threadIdx.x) % 13)) + 77)] * features_11_expand3x3_weight_shared_ptr[((((rc_0_ry_0_rx_0_fused % 3) * 288) + ((((int)threadIdx.x) / 13) * 18)) + 161)]));
  }
  tvm_builtin_ptx_cp_async_wait_group_async_wait_group_1();
  __syncthreads();
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[(((int)threadIdx.x) % 13)] * features_11_expand3x3_weight_shared_ptr[((((int)threadIdx.x) / 13) * 18)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[(((int)threadIdx.x) % 13)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 144)]));
  int cse_v18 = ((((int)threadIdx.x) % 13) + 1);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 1)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 1)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 1)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 145)]));
  int cse_v19 = ((((int)threadIdx.x) % 13) + 2);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 2)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 2)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 2)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 146)]));
  int cse_v20 = ((((int)threadIdx.x) % 13) + 45);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 45)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 9)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 45)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 153)]));
  int cse_v21 = ((((int)threadIdx.x) % 13) + 46);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 46)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 10)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 46)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 154)]));
  int cse_v22 = ((((int)threadIdx.x) % 13) + 47);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 47)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 11)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 47)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 155)]));
  int cse_v23 = ((((int)threadIdx.x) % 13) + 15);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 15)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 3)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 15)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 147)]));
  int cse_v24 = ((((int)threadIdx.x) % 13) + 16);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 16)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 4)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 16)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 148)]));
  int cse_v25 = ((((int)threadIdx.x) % 13) + 17);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 17)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 5)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 17)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 149)]));
  int cse_v26 = ((((int)threadIdx.x) % 13) + 60);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 60)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 12)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 60)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 156)]));
  int cse_v27 = ((((int)threadIdx.x) % 13) + 61);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 61)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 13)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 61)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 157)]));
  int cse_v28 = ((((int)threadIdx.x) % 13) + 62);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 62)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 14)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 62)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 158)]));
  int cse_v29 = ((((int)threadIdx.x) % 13) + 30);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 30)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 6)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 30)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 150)]));
  int cse_v30 = ((((int)threadIdx.x) % 13) + 31);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 31)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 7)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 31)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 151)]));
  int cse_v31 = ((((int)threadIdx.x) % 13) + 32);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 32)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 8)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 32)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 152)]));
  int cse_v32 = ((((int)threadIdx.x) % 13) + 75);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 75)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 15)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 75)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 159)]));
  int cse_v33 = ((((int)threadIdx.x) % 13) + 76);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 76)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 16)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 76)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 160)]));
  int cse_v34 = ((((int)threadIdx.x) % 13) + 77);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 77)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 17)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 77)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 161)]));
  tvm_builtin_ptx_cp_async_wait_group_async_wait_group_0();
  __syncthreads();
  int cse_v35 = ((((int)threadIdx.x) % 13) + 90);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 90)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 288)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 90)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 432)]));
  int cse_v36 = ((((int)threadIdx.x) % 13) + 91);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 91)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 289)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 91)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 433)]));
  int cse_v37 = ((((int)threadIdx.x) % 13) + 92);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 92)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 290)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 92)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 434)]));
  int cse_v38 = ((((int)threadIdx.x) % 13) + 135);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 135)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 297)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 135)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 441)]));
  int cse_v39 = ((((int)threadIdx.x) % 13) + 136);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 136)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 298)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 136)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 442)]));
  int cse_v40 = ((((int)threadIdx.x) % 13) + 137);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 137)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 299)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 137)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 443)]));
  int cse_v41 = ((((int)threadIdx.x) % 13) + 105);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 105)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 291)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 105)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 435)]));
  int cse_v42 = ((((int)threadIdx.x) % 13) + 106);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 106)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 292)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 106)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 436)]));
  int cse_v43 = ((((int)threadIdx.x) % 13) + 107);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 107)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 293)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 107)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 437)]));
  int cse_v44 = ((((int)threadIdx.x) % 13) + 150);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 150)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 300)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 150)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 444)]));
  int cse_v45 = ((((int)threadIdx.x) % 13) + 151);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 151)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 301)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 151)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 445)]));
  int cse_v46 = ((((int)threadIdx.x) % 13) + 152);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 152)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 302)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 152)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 446)]));
  int cse_v47 = ((((int)threadIdx.x) % 13) + 120);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 120)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 294)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 120)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 438)]));
  int cse_v48 = ((((int)threadIdx.x) % 13) + 121);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 121)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 295)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 121)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 439)]));
  int cse_v49 = ((((int)threadIdx.x) % 13) + 122);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 122)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 296)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 122)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 440)]));
  int cse_v50 = ((((int)threadIdx.x) % 13) + 165);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 165)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 303)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 165)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 447)]));
  int cse_v51 = ((((int)threadIdx.x) % 13) + 166);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 166)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 304)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 166)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 448)]));
  int cse_v52 = ((((int)threadIdx.x) % 13) + 167);
  conv2d_nchw_intermediate_local_ptr[0] = (conv2d_nchw_intermediate_local_ptr[0] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 167)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 305)]));
  conv2d_nchw_intermediate_local_ptr[1] = (conv2d_nchw_intermediate_local_ptr[1] + (pad_temp_shared_ptr[((((int)threadIdx.x) % 13) + 167)] * features_11_expand3x3_weight_shared_ptr[(((((int)threadIdx.x) / 13) * 18) + 449)]));
  int cse_v59 = (((((int)blockIdx.x) / 13) * 16) + (((int)threadIdx.x) / 13));
  int cse_v82 = (((((((int)blockIdx.x) / 13) * 2704) + ((((int)threadIdx.x) / 13) * 169)) + ((((int)blockIdx.x) % 13) * 13)) + (((int)threadIdx.x) % 13));
  compute_intermediate_ptr[(((((((int)blockIdx.x) / 13) * 2704) + ((((int)threadIdx.x) / 13) * 169)) + ((((int)blockIdx.x) % 13) * 13)) + (((int)threadIdx.x) % 13))] = max((conv2d_nchw_intermediate_local_ptr[0] + lv93_ptr[(((((int)blockIdx.x) / 13) * 16) + (((int)threadIdx.x) / 13))]), 0x0p+0f/*0.000000e+00*/);
  compute_intermediate_ptr[((((((((int)blockIdx.x) / 13) * 2704) + ((((int)threadIdx.x) / 13) * 169)) + ((((int)blockIdx.x) % 13) * 13)) + (((int)threadIdx.x) % 13)) + 1352)] = max((conv2d_nchw_intermediate_local_ptr[1] + lv93_ptr[((((((int)blockIdx.x) / 13) * 16) + (((int)threadIdx.x) / 13)) + 8)]), 0x0p+0f/*0.000000e+00*/);
}
