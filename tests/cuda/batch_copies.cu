// Batched, attributed and peer copies on one device, and the 2-D/3-D memsets.
// (1) cudaMemcpyBatchAsync: three independent copies (host→device, device→device,
// device→host) under two attribute sets, and CUDA's refusals: an invalid srcAccessOrder,
// attrsIdxs not starting at 0, the legacy default stream. cudaMemcpyWithAttributesAsync.
// (2) cudaMemcpy3DBatchAsync: a pitched pointer-to-pointer box, pointer→array→pointer through
// a float array; a zero extent refused. cudaMemcpy3DWithAttributesAsync.
// (3) cudaMemcpyPeer[Async] and cudaMemcpy3DPeer[Async] from device 0 to device 0; device 1
// does not exist. (4) cudaMemset2DAsync, cudaMemset3D and cudaMemset3DAsync on cudaMalloc3D
// memory, cudaMemcpyToArrayAsync / cudaMemcpyFromArrayAsync.
#include "check.h"
#include <cstring>

static cudaMemcpyAttributes attr(cudaMemcpySrcAccessOrder order) {
    cudaMemcpyAttributes a;
    memset(&a, 0, sizeof a);
    a.srcAccessOrder = order;
    return a;
}

static void batch(cudaStream_t s) {
    const int N = 64;
    static int a[N], c[N];
    for (int i = 0; i < N; i++) a[i] = i;
    int *d0, *d1, *d2, *d3;
    CHECK(cudaMalloc(&d0, 4 * N * sizeof(int)));
    d1 = d0 + N, d2 = d0 + 2 * N, d3 = d0 + 3 * N;
    CHECK(cudaMemset(d0, 0x01, N * sizeof(int)));  // 0x01010101
    CHECK(cudaMemset(d3, 0x02, N * sizeof(int)));
    void *dsts[] = {d1, d2, c};
    const void *srcs[] = {a, d0, d3};
    size_t sizes[] = {N * sizeof(int), N * sizeof(int), N * sizeof(int)};
    cudaMemcpyAttributes attrs[] = {attr(cudaMemcpySrcAccessOrderStream),
                                    attr(cudaMemcpySrcAccessOrderDuringApiCall)};
    size_t idxs[] = {0, 2};
    CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 2, s));
    CHECK(cudaStreamSynchronize(s));
    static int h1[N], h2[N];
    CHECK(cudaMemcpy(h1, d1, sizeof h1, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h2, d2, sizeof h2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        EXPECT(h1[i] == i && h2[i] == 0x01010101 && c[i] == 0x02020202);

    // The refusals CUDA documents.
    cudaMemcpyAttributes bad[] = {attr(cudaMemcpySrcAccessOrderInvalid)};
    EXPECT_ERR(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, bad, idxs, 1, s), cudaErrorInvalidValue);
    size_t from_one[] = {1, 2};
    EXPECT_ERR(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, from_one, 2, s),
               cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 2, 0), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    // cudaStreamPerThread is not the legacy stream.
    CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 2, cudaStreamPerThread));

    cudaMemcpyAttributes any = attr(cudaMemcpySrcAccessOrderAny);
    CHECK(cudaMemcpyWithAttributesAsync(d1, d3, N * sizeof(int), &any, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h1, d1, sizeof h1, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) EXPECT(h1[i] == 0x02020202);
    CHECK(cudaFree(d0));
}

static cudaMemcpy3DOperand pointer(void *p, size_t row, size_t layer) {
    cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypePointer;
    o.op.ptr.ptr = p;
    o.op.ptr.rowLength = row;
    o.op.ptr.layerHeight = layer;
    return o;
}

static cudaMemcpy3DOperand array(cudaArray_t a, size_t x, size_t y) {
    cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypeArray;
    o.op.array.array = a;
    o.op.array.offset = {x, y, 0};
    return o;
}

static cudaMemcpy3DBatchOp op(cudaMemcpy3DOperand src, cudaMemcpy3DOperand dst, size_t w, size_t h,
                              size_t d) {
    cudaMemcpy3DBatchOp o;
    memset(&o, 0, sizeof o);
    o.src = src;
    o.dst = dst;
    o.extent = make_cudaExtent(w, h, d);
    o.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return o;
}

static void batch_3d(cudaStream_t s) {
    // Host box of 2 layers × 3 rows × 8 bytes, rows 16 bytes apart, layers 4 rows apart,
    // copied to a packed device buffer and back into a packed host buffer.
    static unsigned char box[2 * 4 * 16], packed[2 * 3 * 8];
    for (int i = 0; i < (int)sizeof box; i++) box[i] = (unsigned char)i;
    unsigned char *d;
    CHECK(cudaMalloc(&d, sizeof packed));
    cudaMemcpy3DBatchOp ops[] = {op(pointer(box, 16, 4), pointer(d, 0, 0), 8, 3, 2)};
    CHECK(cudaMemcpy3DBatchAsync(1, ops, 0, s));
    cudaMemcpy3DBatchOp back = op(pointer(d, 0, 0), pointer(packed, 0, 0), 8, 3, 2);
    CHECK(cudaMemcpy3DWithAttributesAsync(&back, 0, s));
    CHECK(cudaStreamSynchronize(s));
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 8; x++)
                EXPECT(packed[(z * 3 + y) * 8 + x] == box[(z * 4 + y) * 16 + x]);

    // Pointer → array (at element offset (2, 1)) → pointer, 4 × 2 floats.
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &f, 8, 4));
    static float in[8], out[8];
    for (int i = 0; i < 8; i++) in[i] = 1.5f * i;
    cudaMemcpy3DBatchOp two[] = {op(pointer(in, 0, 0), array(arr, 2, 1), 4, 2, 1),
                                 op(array(arr, 2, 1), pointer(out, 0, 0), 4, 2, 1)};
    CHECK(cudaMemcpy3DBatchAsync(1, &two[0], 0, s));
    CHECK(cudaMemcpy3DBatchAsync(1, &two[1], 0, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < 8; i++) EXPECT(out[i] == in[i]);
    cudaMemcpy3DBatchOp empty = op(pointer(in, 0, 0), pointer(out, 0, 0), 0, 1, 1);
    EXPECT_ERR(cudaMemcpy3DBatchAsync(1, &empty, 0, s), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFree(d));
}

static void peer(cudaStream_t s) {
    const int N = 32;
    int *a, *b;
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&b, N * sizeof(int)));
    CHECK(cudaMemset(a, 0x07, N * sizeof(int)));
    CHECK(cudaMemcpyPeer(b, 0, a, 0, N * sizeof(int)));
    static int h[N];
    CHECK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 0x07070707);
    CHECK(cudaMemset(a, 0x08, N * sizeof(int)));
    CHECK(cudaMemcpyPeerAsync(b, 0, a, 0, N * sizeof(int), s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) EXPECT(h[i] == 0x08080808);

    cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(a, 8 * sizeof(int), 8 * sizeof(int), 4);
    p.dstPtr = make_cudaPitchedPtr(b, 8 * sizeof(int), 8 * sizeof(int), 4);
    p.extent = make_cudaExtent(4 * sizeof(int), 4, 1);  // the left half of each row
    CHECK(cudaMemset(a, 0x09, N * sizeof(int)));
    CHECK(cudaMemcpy3DPeer(&p));
    CHECK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) EXPECT(h[i] == (i % 8 < 4 ? 0x09090909 : 0x08080808));
    CHECK(cudaMemset(a, 0x0a, N * sizeof(int)));
    CHECK(cudaMemcpy3DPeerAsync(&p, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 0x0a0a0a0a && h[4] == 0x08080808);
    p.dstDevice = 1;
    EXPECT_ERR(cudaMemcpy3DPeer(&p), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaMemcpyPeer(b, 1, a, 0, 4), cudaErrorInvalidDevice);
    (void)cudaGetLastError();
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
}

static void memsets(cudaStream_t s) {
    cudaPitchedPtr p;
    cudaExtent e = make_cudaExtent(20, 3, 2);  // bytes, rows, slices
    CHECK(cudaMalloc3D(&p, e));
    EXPECT(p.pitch >= 20);
    size_t bytes = p.pitch * 3 * 2;
    unsigned char *h = (unsigned char *)malloc(bytes);
    CHECK(cudaMemset(p.ptr, 0, bytes));
    CHECK(cudaMemset3D(p, 0x11, make_cudaExtent(10, 2, 2)));
    CHECK(cudaMemcpy(h, p.ptr, bytes, cudaMemcpyDeviceToHost));
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 3; y++)
            for (size_t x = 0; x < p.pitch; x++)
                EXPECT(h[(z * 3 + y) * p.pitch + x] == ((x < 10 && y < 2) ? 0x11 : 0));
    CHECK(cudaMemset3DAsync(p, 0x22, e, s));
    CHECK(cudaMemset2DAsync(p.ptr, p.pitch, 0x33, 5, 3, s));  // first slice only
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h, p.ptr, bytes, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 0x33 && h[5] == 0x22 && h[3 * p.pitch] == 0x22 && h[19] == 0x22);
    EXPECT(h[20] == 0);  // past the extent's width
    EXPECT_ERR(cudaMemset2DAsync(p.ptr, 4, 0, 5, 1, s), cudaErrorInvalidValue);
    (void)cudaGetLastError();
    free(h);
    CHECK(cudaFree(p.ptr));

    // The deprecated asynchronous array copies.
    cudaChannelFormatDesc f = cudaCreateChannelDesc<int>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &f, 16, 1));
    static int in[16], out[16];
    for (int i = 0; i < 16; i++) in[i] = 100 + i;
    CHECK(cudaMemcpyToArrayAsync(arr, 0, 0, in, sizeof in, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyFromArrayAsync(out, arr, 0, 0, sizeof out, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < 16; i++) EXPECT(out[i] == 100 + i);
    CHECK(cudaFreeArray(arr));
}

int main() {
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    batch(s);
    batch_3d(s);
    peer(s);
    memsets(s);
    CHECK(cudaStreamDestroy(s));
    printf("PASS batch_copies\n");
    return 0;
}
