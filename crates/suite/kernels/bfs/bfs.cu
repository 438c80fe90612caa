// bfs: one level of a level-synchronous breadth-first search over a CSR graph.
//
// dist[v] == -1 marks an unvisited vertex. Every vertex on the current frontier
// (dist[v] == level) labels its unvisited neighbours level + 1 and raises *changed. The host
// clears *changed, launches, reads *changed back and repeats with level + 1 while it is set.
// Racing writers store the same value, so the result is deterministic.

__global__ void bfsLevel(const int *row_ptr, const int *cols, int *dist, int *changed, int n, int level)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || dist[v] != level) return;

    const int end = row_ptr[v + 1];
    for (int e = row_ptr[v]; e < end; ++e) {
        const int u = cols[e];
        if (dist[u] == -1) {
            dist[u] = level + 1;
            *changed = 1;
        }
    }
}
