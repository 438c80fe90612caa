// ispass_ray: a Whitted-style ray tracer, one thread per pixel (the PRO paper's Table II "RAY",
// GPGPU-Sim's ISPASS-2009 ray tracer: render, 512 CTAs; ours: a 256 x 256 image in 16 x 8
// CTAs, 16 x 32 of them).
//
// The scene: SPHERES spheres (centre, radius, colour, reflectivity) in __constant__ memory,
// written by the host through the symbol c_spheres, resting on a checkered plane y = -1; one
// point light; a constant sky. Per pixel a primary ray from a pinhole camera; at each hit the
// nearest object's colour is shaded by ambient + diffuse (zero when a shadow ray toward the
// light hits anything nearer than the light) plus a specular highlight (cos^16 of the
// reflected ray and the light), weighted by (1 - reflectivity), and the ray reflects with the
// remaining weight: at most BOUNCES reflections. Hits further than FAR count as misses.
//
// Every float operation is an explicit round-to-nearest intrinsic (or an exact one: fmaxf,
// fminf, floorf, negation) in a fixed order, which the driver repeats in f32, so the packed
// 8-bit colours compare exactly.

#define SPHERES 6
#define BOUNCES 3
#define EPS 1e-3f
#define FAR 100.0f
#define PLANE_Y -1.0f
#define AMBIENT 0.15f

struct Sphere {
    float x, y, z, r;
    float red, green, blue, refl;
};

__constant__ Sphere c_spheres[SPHERES];

struct V3 {
    float x, y, z;
};

__device__ __forceinline__ V3 v3(float x, float y, float z)
{
    V3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
__device__ __forceinline__ V3 add(V3 a, V3 b) { return v3(__fadd_rn(a.x, b.x), __fadd_rn(a.y, b.y), __fadd_rn(a.z, b.z)); }
__device__ __forceinline__ V3 sub(V3 a, V3 b) { return v3(__fsub_rn(a.x, b.x), __fsub_rn(a.y, b.y), __fsub_rn(a.z, b.z)); }
__device__ __forceinline__ V3 scale(V3 a, float s) { return v3(__fmul_rn(a.x, s), __fmul_rn(a.y, s), __fmul_rn(a.z, s)); }
__device__ __forceinline__ float dot(V3 a, V3 b)
{
    return __fadd_rn(__fadd_rn(__fmul_rn(a.x, b.x), __fmul_rn(a.y, b.y)), __fmul_rn(a.z, b.z));
}
__device__ __forceinline__ V3 normalize(V3 a) { return scale(a, __fdiv_rn(1.0f, __fsqrt_rn(dot(a, a)))); }
// d reflected about the unit normal n: d - 2 (d . n) n.
__device__ __forceinline__ V3 reflect(V3 d, V3 n) { return sub(d, scale(n, __fmul_rn(2.0f, dot(d, n)))); }

// The nearest hit in (EPS, FAR) along the unit ray (o, d): its distance, and in *hit the
// sphere's index, SPHERES for the plane, -1 for none.
__device__ float nearest(V3 o, V3 d, int *hit)
{
    float best = FAR;
    int id = -1;
#pragma unroll 1
    for (int s = 0; s < SPHERES; s++) {
        const Sphere sp = c_spheres[s];
        const V3 oc = sub(o, v3(sp.x, sp.y, sp.z));
        const float b = dot(oc, d);
        const float c = __fsub_rn(dot(oc, oc), __fmul_rn(sp.r, sp.r));
        const float disc = __fsub_rn(__fmul_rn(b, b), c);
        if (disc > 0.0f) {
            const float t = __fsub_rn(-b, __fsqrt_rn(disc));
            if (t > EPS && t < best) {
                best = t;
                id = s;
            }
        }
    }
    if (d.y < 0.0f) {
        const float t = __fdiv_rn(__fsub_rn(PLANE_Y, o.y), d.y);
        if (t > EPS && t < best) {
            best = t;
            id = SPHERES;
        }
    }
    *hit = id;
    return best;
}

__device__ __forceinline__ unsigned int channel(float c)
{
    return __float2uint_rz(__fmul_rn(fminf(c, 1.0f), 255.0f));
}

__global__ void render(unsigned int *pixels, int width, int height)
{
    const int px = blockIdx.x * blockDim.x + threadIdx.x;
    const int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= width || py >= height)
        return;
    const float aspect = __fdiv_rn((float)width, (float)height);
    const float u = __fmul_rn(__fsub_rn(__fdiv_rn(__fmul_rn(2.0f, __fadd_rn((float)px, 0.5f)), (float)width), 1.0f), aspect);
    const float v = __fsub_rn(1.0f, __fdiv_rn(__fmul_rn(2.0f, __fadd_rn((float)py, 0.5f)), (float)height));
    const V3 light = v3(4.0f, 6.0f, -3.0f);
    V3 o = v3(0.0f, 0.5f, -4.0f);
    V3 d = normalize(v3(u, v, 1.5f));
    V3 color = v3(0.0f, 0.0f, 0.0f);
    float weight = 1.0f;

#pragma unroll 1
    for (int bounce = 0; bounce <= BOUNCES; bounce++) {
        int id;
        const float t = nearest(o, d, &id);
        if (id < 0) {
            color = add(color, scale(v3(0.4f, 0.6f, 0.9f), weight));
            break;
        }
        const V3 p = add(o, scale(d, t));
        V3 n, albedo;
        float refl;
        if (id == SPHERES) {
            n = v3(0.0f, 1.0f, 0.0f);
            const int cell = (int)floorf(p.x) + (int)floorf(p.z);
            albedo = (cell & 1) ? v3(0.9f, 0.9f, 0.9f) : v3(0.2f, 0.2f, 0.2f);
            refl = 0.3f;
        } else {
            const Sphere sp = c_spheres[id];
            n = normalize(sub(p, v3(sp.x, sp.y, sp.z)));
            albedo = v3(sp.red, sp.green, sp.blue);
            refl = sp.refl;
        }
        const V3 to_light = sub(light, p);
        const float dist = __fsqrt_rn(dot(to_light, to_light));
        const V3 l = scale(to_light, __fdiv_rn(1.0f, dist));
        float diffuse = fmaxf(dot(n, l), 0.0f);
        if (diffuse > 0.0f) {
            int blocker;
            const float bt = nearest(p, l, &blocker);
            if (blocker >= 0 && bt < dist)
                diffuse = 0.0f;
        }
        const V3 r = reflect(d, n);
        float spec = 0.0f;
        if (diffuse > 0.0f) {
            spec = fmaxf(dot(r, l), 0.0f);
            spec = __fmul_rn(spec, spec);
            spec = __fmul_rn(spec, spec);
            spec = __fmul_rn(spec, spec);
            spec = __fmul_rn(spec, spec);
        }
        const float shade = __fadd_rn(AMBIENT, __fmul_rn(__fsub_rn(1.0f, AMBIENT), diffuse));
        const float k = __fmul_rn(weight, __fsub_rn(1.0f, refl));
        color = add(color, scale(add(scale(albedo, shade), v3(spec, spec, spec)), k));
        weight = __fmul_rn(weight, refl);
        if (weight == 0.0f)
            break;
        o = p;
        d = r;
    }
    pixels[py * width + px] = channel(color.x) | (channel(color.y) << 8) | (channel(color.z) << 16);
}
