// local_array: per-thread arrays in local memory.
//
// Each thread copies LA_N values into a local array and sorts it with a __noinline__
// insertion sort that receives the array through a (generic) pointer, so the array must
// live in local memory. It then counts the values' low nibbles into a second local array
// indexed by the data (a dynamic index: local memory again) and writes the exclusive
// prefix sum of those counts.

#define LA_N 16

__device__ __noinline__ void insertionSort(int *a, int n)
{
    for (int i = 1; i < n; ++i) {
        const int v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = v;
    }
}

__global__ void localSortCount(const int *in, int *sorted, int *offsets, int count)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;

    int a[LA_N];
    for (int i = 0; i < LA_N; ++i)
        a[i] = in[t * LA_N + i];

    insertionSort(a, LA_N);

    int h[LA_N];
    for (int i = 0; i < LA_N; ++i)
        h[i] = 0;
    for (int i = 0; i < LA_N; ++i)
        h[a[i] & (LA_N - 1)] += 1;

    int run = 0;
    for (int i = 0; i < LA_N; ++i) {
        sorted[t * LA_N + i] = a[i];
        offsets[t * LA_N + i] = run;
        run += h[i];
    }
}
