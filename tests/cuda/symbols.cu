// __constant__ and __device__ variables: cudaMemcpyToSymbol / FromSymbol (with offsets, and
// device-to-device), cudaGetSymbolAddress, cudaGetSymbolSize, and a bad symbol.
#include "check.h"

__constant__ float coeffs[8];
__constant__ int bias = 100;
__device__ int counter;
__device__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};

__global__ void apply(const float *in, float *out) {
    int i = threadIdx.x;
    out[i] = in[i] * coeffs[i % 8] + bias + table[i % 4];
    atomicAdd(&counter, 1);
}

int main() {
    float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(cudaMemcpyToSymbol(coeffs, h, sizeof h));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    // Overwrite the last two coefficients through an offset.
    float tail[2] = {70, 80};
    CHECK(cudaMemcpyToSymbol(coeffs, tail, sizeof tail, 6 * sizeof(float)));

    float back[8];
    CHECK(cudaMemcpyFromSymbol(back, coeffs, sizeof back));
    for (int i = 0; i < 6; i++) EXPECT(back[i] == i + 1);
    EXPECT(back[6] == 70 && back[7] == 80);
    int b;
    CHECK(cudaMemcpyFromSymbol(&b, bias, sizeof b));
    EXPECT(b == 100);

    float in[32], out[32];
    for (int i = 0; i < 32; i++) in[i] = i;
    float *din, *dout;
    CHECK(cudaMalloc(&din, sizeof in));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    apply<<<1, 32>>>(din, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    float c[8] = {1, 2, 3, 4, 5, 6, 70, 80}, t[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    for (int i = 0; i < 32; i++) EXPECT(out[i] == in[i] * c[i % 8] + 100 + t[i % 4]);
    int count;
    CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof count));
    EXPECT(count == 32);

    // The variable's device address works with plain copies and from kernels' view.
    int *dcounter;
    size_t size;
    CHECK(cudaGetSymbolAddress((void **)&dcounter, counter));
    CHECK(cudaGetSymbolSize(&size, table));
    EXPECT(size == sizeof t);
    int via_ptr;
    CHECK(cudaMemcpy(&via_ptr, dcounter, sizeof via_ptr, cudaMemcpyDeviceToHost));
    EXPECT(via_ptr == 32);

    // Device-to-device into a symbol, then back out.
    CHECK(cudaMemcpyToSymbol(table, din + 4, 4 * sizeof(float), 0, cudaMemcpyDeviceToDevice));
    float tb[4];
    CHECK(cudaMemcpyFromSymbol(tb, table, sizeof tb));
    for (int i = 0; i < 4; i++) EXPECT(tb[i] == 4 + i);
    CHECK(cudaMemcpyToSymbolAsync(counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice, 0));
    CHECK(cudaMemcpyFromSymbolAsync(&count, counter, sizeof count, 0, cudaMemcpyDeviceToHost, 0));
    EXPECT(count == 0);

    // Not a registered variable; past the end of one.
    static int not_a_symbol;
    EXPECT_ERR(cudaMemcpyToSymbol(not_a_symbol, &zero, sizeof zero), cudaErrorInvalidSymbol);
    EXPECT_ERR(cudaMemcpyToSymbol(coeffs, h, sizeof h, 4), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    CHECK(cudaGetLastError());
    printf("PASS symbols\n");
    return 0;
}
