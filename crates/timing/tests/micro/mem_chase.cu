// mem_chase: the load-to-use latency of one level of the memory hierarchy.
//
// One thread follows a chain of pointers (each element holds the address of the next), so
// every load depends on the one before and nothing overlaps. With `warm` set the chain is
// walked once first, so the timed walk hits in whatever level the chain's footprint fits
// (L1 for a few KiB, L2 for a few hundred KiB); cold, every hop goes to DRAM. The host
// builds the chain (stride and footprint pick the level). Loads use __ldg (ld.global.nc),
// which both presets cache in L1 (Pascal caches plain global loads only in L2). out[0] = cycles of the timed walk,
// out[1] = where it ended (keeps the walk live).

extern "C" __global__ void mem_chase(long long *out, const unsigned long long *start, int hops, int warm)
{
    const unsigned long long *p = start;
    if (warm)
        for (int i = 0; i < hops; i++)
            p = (const unsigned long long *)__ldg(p);
    long long t0 = clock64();
    for (int i = 0; i < hops; i++)
        p = (const unsigned long long *)__ldg(p);
    long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = (long long)p;
}
