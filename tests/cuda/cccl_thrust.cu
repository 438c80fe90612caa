// Census program (issue 40, item 3): Thrust's sort, sort_by_key, inclusive_scan,
// reduce_by_key, unique, transform_reduce, set_union/set_intersection and reduce, each checked
// against the same computation on the CPU.
// PTX only, host code unoptimised: warpsim reads the PTX, not the SASS ptxas would add, and
// neither changes it while both take a third of this program's build (scripts/test-cudart.sh).
// NVCC-FLAGS: -arch=compute_75 -O0
#include "check.h"
#ifndef CCCL_NAME
#define CCCL_NAME "cccl_thrust"
#endif
#include <algorithm>
#include <numeric>
#include <vector>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/set_operations.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

struct square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

int main() {
    const int n = 3000;
    std::vector<int> h(n), v(n);
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        h[i] = (int)((s >> 8) % 1000) - 500;
        v[i] = i;
    }

    // sort
    thrust::device_vector<int> d(h.begin(), h.end());
    thrust::sort(d.begin(), d.end());
    std::vector<int> want = h;
    std::sort(want.begin(), want.end());
    std::vector<int> got(n);
    thrust::copy(d.begin(), d.end(), got.begin());
    EXPECT(got == want);

    // sort_by_key (stable on equal keys: compare with a stable CPU sort of pairs)
    thrust::device_vector<int> k(h.begin(), h.end()), vals(v.begin(), v.end());
    thrust::stable_sort_by_key(k.begin(), k.end(), vals.begin());
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return h[a] < h[b]; });
    std::vector<int> gv(n);
    thrust::copy(vals.begin(), vals.end(), gv.begin());
    EXPECT(gv == idx);

    // inclusive_scan
    thrust::device_vector<int> sc(h.begin(), h.end());
    thrust::inclusive_scan(sc.begin(), sc.end(), sc.begin());
    std::vector<int> ws(n);
    std::partial_sum(h.begin(), h.end(), ws.begin());
    thrust::copy(sc.begin(), sc.end(), got.begin());
    EXPECT(got == ws);

    // reduce_by_key over the sorted keys: count of each key
    thrust::device_vector<int> ones(n, 1), ok(n), oc(n);
    auto ends = thrust::reduce_by_key(d.begin(), d.end(), ones.begin(), ok.begin(), oc.begin());
    int groups = (int)(ends.first - ok.begin());
    std::vector<int> wk, wc;
    for (int i = 0; i < n; i++) {
        if (i == 0 || want[i] != want[i - 1]) {
            wk.push_back(want[i]);
            wc.push_back(0);
        }
        wc.back()++;
    }
    EXPECT(groups == (int)wk.size());
    std::vector<int> gk(groups), gc(groups);
    thrust::copy(ok.begin(), ok.begin() + groups, gk.begin());
    thrust::copy(oc.begin(), oc.begin() + groups, gc.begin());
    EXPECT(gk == wk && gc == wc);

    // unique
    thrust::device_vector<int> u = d;
    int nu = (int)(thrust::unique(u.begin(), u.end()) - u.begin());
    EXPECT(nu == (int)wk.size());

    // transform_reduce and reduce
    long long sq = thrust::transform_reduce(d.begin(), d.end(), square(), 0LL, thrust::plus<long long>());
    long long wsq = 0, wsum = 0;
    for (int x : h) wsq += (long long)x * x, wsum += x;
    EXPECT(sq == wsq);
    EXPECT(thrust::reduce(d.begin(), d.end(), 0LL) == wsum);

    // set_union / set_intersection of the unique keys with the even numbers in [-500, 500)
    std::vector<int> evens;
    for (int x = -500; x < 500; x += 2) evens.push_back(x);
    thrust::device_vector<int> de(evens.begin(), evens.end()), out(wk.size() + evens.size());
    int nun = (int)(thrust::set_union(u.begin(), u.begin() + nu, de.begin(), de.end(), out.begin()) - out.begin());
    std::vector<int> wun;
    std::set_union(wk.begin(), wk.end(), evens.begin(), evens.end(), std::back_inserter(wun));
    EXPECT(nun == (int)wun.size());
    std::vector<int> gun(nun);
    thrust::copy(out.begin(), out.begin() + nun, gun.begin());
    EXPECT(gun == wun);
    int nin = (int)(thrust::set_intersection(u.begin(), u.begin() + nu, de.begin(), de.end(), out.begin()) - out.begin());
    std::vector<int> win;
    std::set_intersection(wk.begin(), wk.end(), evens.begin(), evens.end(), std::back_inserter(win));
    EXPECT(nin == (int)win.size());

    printf("PASS %s\n", CCCL_NAME);
    return 0;
}
