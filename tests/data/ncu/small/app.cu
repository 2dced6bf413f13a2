// Two small kernels for kernelscope's import tests; "scale" is launched twice.
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = x[i] * a + 1.0f;
    }
}

__global__ void row_sum(const float* x, float* out, int cols) {
    __shared__ float buf[256];
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        s += x[blockIdx.x * cols + c];
    }
    buf[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) buf[threadIdx.x] += buf[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

int main() {
    const int rows = 512, cols = 4096, n = rows * cols;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, rows * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));
    scale<<<n / 256, 256>>>(x, 2.0f, n);
    row_sum<<<rows, 256>>>(x, out, cols);
    scale<<<n / 256, 256>>>(x, 0.5f, n);
    cudaError_t err = cudaDeviceSynchronize();
    printf("done %s\n", cudaGetErrorString(err));
    return err == cudaSuccess ? 0 : 1;
}
