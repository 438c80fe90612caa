// rod_bfs: breadth-first search from one source on a random CSR graph, with Rodinia's
// two-kernel, mask-based level step. Per level the host launches
//   bfsExpand  one thread per node: a node in the frontier mask leaves it and gives every
//              unvisited neighbour cost + 1 and an "updating" mark (several parents may write
//              the same neighbour; they all write the same cost).
//   bfsUpdate  one thread per node: updating nodes join the frontier and the visited set, and
//              set the `more` flag the host reads back to decide whether to go on.
// No shared memory and no barriers (the launch boundary separates the two phases); per-thread
// work is data-dependent (degree and frontier membership). Integer: exact.

__global__ void bfsExpand(const int *rowStart, const int *edges, unsigned char *mask, unsigned char *updating,
                          const unsigned char *visited, int *cost, int n)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !mask[v])
        return;
    mask[v] = 0;
    const int c = cost[v] + 1;
    for (int e = rowStart[v]; e < rowStart[v + 1]; e++) {
        const int u = edges[e];
        if (!visited[u]) {
            cost[u] = c;
            updating[u] = 1;
        }
    }
}

__global__ void bfsUpdate(unsigned char *mask, unsigned char *updating, unsigned char *visited, int *more, int n)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !updating[v])
        return;
    mask[v] = 1;
    visited[v] = 1;
    updating[v] = 0;
    *more = 1;
}
