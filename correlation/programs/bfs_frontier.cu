// Level-synchronous BFS in Rodinia's style: a random graph of 8192 nodes with 1-7 out-edges
// each (offsets 4 v + (hash(v) & 3), hashed targets), two kernels per level (bfs_expand: a
// thread per node, only frontier nodes walk their edges — divergent branches and gathers;
// bfs_update: newly reached nodes join the frontier), 32 CTAs x 256 threads. The host takes
// the level count from its own BFS of the same graph, so no flag is read back between
// launches (a device-to-host copy fills GPGPU-Sim's L2).
#include "common.h"

#define NODES 8192
#define EDGES (4 * NODES)
#define THREADS 256

__host__ __device__ inline unsigned offset_of(unsigned v) {
    return (v == 0 || v == NODES) ? 4 * v : 4 * v + (hash32(v ^ 0x2545f491u) & 3);
}
__host__ __device__ inline unsigned target_of(unsigned e) { return hash32(e + 0x68e31da4u) % NODES; }

extern "C" __global__ void setup_graph(unsigned *offsets, unsigned *edges, unsigned char *mask,
                                       unsigned char *updating, unsigned char *visited, int *cost) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < EDGES; i += stride) {
        edges[i] = target_of(i);
        if (i <= NODES) offsets[i] = offset_of(i);
        if (i < NODES) {
            mask[i] = visited[i] = (i == 0);
            updating[i] = 0;
            cost[i] = i == 0 ? 0 : -1;
        }
    }
}

extern "C" __global__ void bfs_expand(const unsigned *offsets, const unsigned *edges, unsigned char *mask,
                                      unsigned char *updating, const unsigned char *visited, int *cost) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < NODES && mask[v]) {
        mask[v] = 0;
        for (unsigned e = offsets[v]; e < offsets[v + 1]; e++) {
            unsigned u = edges[e];
            if (!visited[u]) {
                cost[u] = cost[v] + 1;
                updating[u] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *mask, unsigned char *updating, unsigned char *visited) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < NODES && updating[v]) {
        mask[v] = 1;
        visited[v] = 1;
        updating[v] = 0;
    }
}

int main() {
    // The CPU's BFS first: its depth is the number of levels to launch.
    int *ref = (int *)malloc(NODES * sizeof(int)), *queue = (int *)malloc(NODES * sizeof(int));
    for (int v = 0; v < NODES; v++) ref[v] = -1;
    int head = 0, tail = 0, depth = 0;
    ref[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (unsigned e = offset_of(v); e < offset_of(v + 1); e++) {
            int u = target_of(e);
            if (ref[u] < 0) {
                ref[u] = ref[v] + 1;
                depth = ref[u];
                queue[tail++] = u;
            }
        }
    }
    unsigned *d_off = device_alloc<unsigned>(NODES + 1), *d_edges = device_alloc<unsigned>(EDGES);
    unsigned char *d_mask = device_alloc<unsigned char>(NODES), *d_upd = device_alloc<unsigned char>(NODES);
    unsigned char *d_vis = device_alloc<unsigned char>(NODES);
    int *d_cost = device_alloc<int>(NODES);
    setup_graph<<<64, 256>>>(d_off, d_edges, d_mask, d_upd, d_vis, d_cost);
    CHECK_LAUNCH();
    for (int level = 0; level < depth; level++) {
        bfs_expand<<<NODES / THREADS, THREADS>>>(d_off, d_edges, d_mask, d_upd, d_vis, d_cost);
        CHECK_LAUNCH();
        bfs_update<<<NODES / THREADS, THREADS>>>(d_mask, d_upd, d_vis);
        CHECK_LAUNCH();
    }
    printf("bfs_frontier: %d levels, %d of %d nodes reached\n", depth, tail, NODES);
    int *got = host_copy(d_cost, NODES);
    for (int v = 0; v < NODES; v++) expect_eq("cost", v, ref[v], got[v]);
    return finish("bfs_frontier");
}
