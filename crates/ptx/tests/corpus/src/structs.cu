// Struct-by-value parameters and struct returns from non-inlined device functions.
struct Vec3 { float x, y, z; };
struct __align__(16) Pair { double a; long long b; };
struct Big { int v[9]; };

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ __noinline__ Pair mix(Pair p, Big big) {
    Pair r;
    r.a = p.a * 2.0 + big.v[0];
    r.b = p.b + big.v[8];
    return r;
}

__global__ void structs(Vec3 a, Pair p, Big big, Vec3* out, Pair* pout) {
    Vec3 b = {1.0f * threadIdx.x, 2.0f, 3.0f};
    out[threadIdx.x] = cross(a, b);
    Big local = big;
    local.v[threadIdx.x % 9] += 1;
    pout[threadIdx.x] = mix(p, local);
}
