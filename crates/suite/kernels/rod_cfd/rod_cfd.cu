// rod_cfd: explicit finite-volume solver of the 3-D Euler equations on an unstructured grid
// (Rodinia "cfd" / euler3d structure). Every cell holds 5 conserved variables (density,
// momentum x/y/z, density * energy), stored variable-major: variable v of cell i at
// variables[v * nelr + i]. Every cell has 4 faces; neighbours[j * nelr + i] is the cell
// across face j, or CFD_WALL / CFD_FAR_FIELD for a boundary face, and the face's normal
// (pointing into cell i, its length the face's area) is normals[(j * 3 + d) * nelr + i].
// The far-field state and its flux contributions live in __constant__ memory, written by the
// host through the symbols `c_ff_variable` and `c_ff_flux`.
// Per iteration the host launches, as Rodinia's host loop does:
//   cfdCopy        old variables = variables
//   cfdStepFactor  local time step per cell: 0.5 / (sqrt(area) * (|velocity| + speed of sound))
//   then for each of the CFD_RK Runge-Kutta stages j:
//   cfdFlux        gathers the 4 neighbours' variables: central flux through every face plus an
//                  artificial-viscosity term scaled by both cells' speeds and sound speeds;
//                  wall faces add the pressure force, far-field faces the central flux
//                  against the far-field state
//   cfdTimeStep    variables = old variables + step factor / (CFD_RK + 1 - j) * fluxes
// One thread per cell in CTAs of CFD_T (Rodinia's block length for cfd); the number of cells
// is a multiple of CFD_T, so there are no bounds checks. No shared memory and no barriers.
// Every float operation is an explicit round-to-nearest intrinsic (no contraction), so the
// host repeats the arithmetic in f32 in the same order and compares bit for bit.

#define CFD_T 192
#define CFD_RK 3
#define CFD_NVAR 5
#define CFD_NNB 4
#define CFD_WALL (-1)
#define CFD_FAR_FIELD (-2)
#define CFD_GAMMA 1.4f
#define CFD_SMOOTHING 0.2f

// density, momentum x/y/z, density * energy of the free stream.
__constant__ float c_ff_variable[CFD_NVAR];
// Its flux contributions: momentum x (3), momentum y (3), momentum z (3), density * energy (3).
__constant__ float c_ff_flux[12];

struct CfdState {
    float density, de, pressure, speed_sqd;
    float3 momentum, velocity;
};

// Velocity, squared speed and pressure of a cell's conserved variables.
__device__ __forceinline__ CfdState cfdState(float density, float3 momentum, float de)
{
    CfdState s;
    s.density = density;
    s.momentum = momentum;
    s.de = de;
    s.velocity = make_float3(__fdiv_rn(momentum.x, density), __fdiv_rn(momentum.y, density),
                             __fdiv_rn(momentum.z, density));
    s.speed_sqd = __fadd_rn(__fadd_rn(__fmul_rn(s.velocity.x, s.velocity.x), __fmul_rn(s.velocity.y, s.velocity.y)),
                            __fmul_rn(s.velocity.z, s.velocity.z));
    s.pressure = __fmul_rn(CFD_GAMMA - 1.0f, __fsub_rn(de, __fmul_rn(__fmul_rn(0.5f, density), s.speed_sqd)));
    return s;
}

__device__ __forceinline__ float cfdSpeedOfSound(const CfdState &s)
{
    return __fsqrt_rn(__fdiv_rn(__fmul_rn(CFD_GAMMA, s.pressure), s.density));
}

__device__ __forceinline__ CfdState cfdLoad(const float *variables, int nelr, int i)
{
    return cfdState(variables[i],
                    make_float3(variables[nelr + i], variables[2 * nelr + i], variables[3 * nelr + i]),
                    variables[4 * nelr + i]);
}

// The flux contributions (momentum x, y, z and density * energy) of a cell's state.
struct CfdFluxes {
    float3 mx, my, mz, de;
};

__device__ __forceinline__ CfdFluxes cfdFluxes(const CfdState &s)
{
    CfdFluxes f;
    const float3 v = s.velocity, m = s.momentum;
    f.mx = make_float3(__fadd_rn(__fmul_rn(v.x, m.x), s.pressure), __fmul_rn(v.y, m.x), __fmul_rn(v.z, m.x));
    f.my = make_float3(__fmul_rn(v.x, m.y), __fadd_rn(__fmul_rn(v.y, m.y), s.pressure), __fmul_rn(v.z, m.y));
    f.mz = make_float3(__fmul_rn(v.x, m.z), __fmul_rn(v.y, m.z), __fadd_rn(__fmul_rn(v.z, m.z), s.pressure));
    const float dep = __fadd_rn(s.de, s.pressure);
    f.de = make_float3(__fmul_rn(v.x, dep), __fmul_rn(v.y, dep), __fmul_rn(v.z, dep));
    return f;
}

// acc += factor * (a + b)
__device__ __forceinline__ float cfdCentral(float acc, float factor, float a, float b)
{
    return __fadd_rn(acc, __fmul_rn(factor, __fadd_rn(a, b)));
}

__global__ void cfdCopy(int nelr, const float *variables, float *old_variables)
{
    const int i = blockIdx.x * CFD_T + threadIdx.x;
#pragma unroll
    for (int v = 0; v < CFD_NVAR; v++)
        old_variables[v * nelr + i] = variables[v * nelr + i];
}

__global__ void cfdStepFactor(int nelr, const float *variables, const float *areas, float *step_factors)
{
    const int i = blockIdx.x * CFD_T + threadIdx.x;
    const CfdState s = cfdLoad(variables, nelr, i);
    const float c = cfdSpeedOfSound(s);
    step_factors[i] =
        __fdiv_rn(0.5f, __fmul_rn(__fsqrt_rn(areas[i]), __fadd_rn(__fsqrt_rn(s.speed_sqd), c)));
}

__global__ void cfdFlux(int nelr, const int *neighbours, const float *normals, const float *variables, float *fluxes)
{
    const int i = blockIdx.x * CFD_T + threadIdx.x;
    const CfdState si = cfdLoad(variables, nelr, i);
    const float speed_i = __fsqrt_rn(si.speed_sqd);
    const float sound_i = cfdSpeedOfSound(si);
    const CfdFluxes fi = cfdFluxes(si);
    float flux_density = 0.0f, flux_de = 0.0f;
    float3 flux_momentum = make_float3(0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int j = 0; j < CFD_NNB; j++) {
        const int nb = neighbours[j * nelr + i];
        const float3 n = make_float3(normals[(j * 3 + 0) * nelr + i], normals[(j * 3 + 1) * nelr + i],
                                     normals[(j * 3 + 2) * nelr + i]);
        if (nb >= 0) {
            const CfdState sn = cfdLoad(variables, nelr, nb);
            const float normal_len =
                __fsqrt_rn(__fadd_rn(__fadd_rn(__fmul_rn(n.x, n.x), __fmul_rn(n.y, n.y)), __fmul_rn(n.z, n.z)));
            const float sound_nb = cfdSpeedOfSound(sn);
            // Artificial viscosity: pulls the cell towards its neighbour.
            float factor = __fmul_rn(__fmul_rn(-normal_len, CFD_SMOOTHING), 0.5f);
            factor = __fmul_rn(factor,
                               __fadd_rn(__fadd_rn(__fadd_rn(speed_i, __fsqrt_rn(sn.speed_sqd)), sound_i), sound_nb));
            flux_density = __fadd_rn(flux_density, __fmul_rn(factor, __fsub_rn(si.density, sn.density)));
            flux_de = __fadd_rn(flux_de, __fmul_rn(factor, __fsub_rn(si.de, sn.de)));
            flux_momentum.x = __fadd_rn(flux_momentum.x, __fmul_rn(factor, __fsub_rn(si.momentum.x, sn.momentum.x)));
            flux_momentum.y = __fadd_rn(flux_momentum.y, __fmul_rn(factor, __fsub_rn(si.momentum.y, sn.momentum.y)));
            flux_momentum.z = __fadd_rn(flux_momentum.z, __fmul_rn(factor, __fsub_rn(si.momentum.z, sn.momentum.z)));
            // Central flux: the mean of both cells' flux contributions through the face.
            const CfdFluxes fn = cfdFluxes(sn);
            factor = __fmul_rn(0.5f, n.x);
            flux_density = cfdCentral(flux_density, factor, sn.momentum.x, si.momentum.x);
            flux_de = cfdCentral(flux_de, factor, fn.de.x, fi.de.x);
            flux_momentum.x = cfdCentral(flux_momentum.x, factor, fn.mx.x, fi.mx.x);
            flux_momentum.y = cfdCentral(flux_momentum.y, factor, fn.my.x, fi.my.x);
            flux_momentum.z = cfdCentral(flux_momentum.z, factor, fn.mz.x, fi.mz.x);
            factor = __fmul_rn(0.5f, n.y);
            flux_density = cfdCentral(flux_density, factor, sn.momentum.y, si.momentum.y);
            flux_de = cfdCentral(flux_de, factor, fn.de.y, fi.de.y);
            flux_momentum.x = cfdCentral(flux_momentum.x, factor, fn.mx.y, fi.mx.y);
            flux_momentum.y = cfdCentral(flux_momentum.y, factor, fn.my.y, fi.my.y);
            flux_momentum.z = cfdCentral(flux_momentum.z, factor, fn.mz.y, fi.mz.y);
            factor = __fmul_rn(0.5f, n.z);
            flux_density = cfdCentral(flux_density, factor, sn.momentum.z, si.momentum.z);
            flux_de = cfdCentral(flux_de, factor, fn.de.z, fi.de.z);
            flux_momentum.x = cfdCentral(flux_momentum.x, factor, fn.mx.z, fi.mx.z);
            flux_momentum.y = cfdCentral(flux_momentum.y, factor, fn.my.z, fi.my.z);
            flux_momentum.z = cfdCentral(flux_momentum.z, factor, fn.mz.z, fi.mz.z);
        } else if (nb == CFD_WALL) {
            // The wall pushes back with the cell's pressure.
            flux_momentum.x = __fadd_rn(flux_momentum.x, __fmul_rn(n.x, si.pressure));
            flux_momentum.y = __fadd_rn(flux_momentum.y, __fmul_rn(n.y, si.pressure));
            flux_momentum.z = __fadd_rn(flux_momentum.z, __fmul_rn(n.z, si.pressure));
        } else if (nb == CFD_FAR_FIELD) {
            float factor = __fmul_rn(0.5f, n.x);
            flux_density = cfdCentral(flux_density, factor, c_ff_variable[1], si.momentum.x);
            flux_de = cfdCentral(flux_de, factor, c_ff_flux[9], fi.de.x);
            flux_momentum.x = cfdCentral(flux_momentum.x, factor, c_ff_flux[0], fi.mx.x);
            flux_momentum.y = cfdCentral(flux_momentum.y, factor, c_ff_flux[3], fi.my.x);
            flux_momentum.z = cfdCentral(flux_momentum.z, factor, c_ff_flux[6], fi.mz.x);
            factor = __fmul_rn(0.5f, n.y);
            flux_density = cfdCentral(flux_density, factor, c_ff_variable[2], si.momentum.y);
            flux_de = cfdCentral(flux_de, factor, c_ff_flux[10], fi.de.y);
            flux_momentum.x = cfdCentral(flux_momentum.x, factor, c_ff_flux[1], fi.mx.y);
            flux_momentum.y = cfdCentral(flux_momentum.y, factor, c_ff_flux[4], fi.my.y);
            flux_momentum.z = cfdCentral(flux_momentum.z, factor, c_ff_flux[7], fi.mz.y);
            factor = __fmul_rn(0.5f, n.z);
            flux_density = cfdCentral(flux_density, factor, c_ff_variable[3], si.momentum.z);
            flux_de = cfdCentral(flux_de, factor, c_ff_flux[11], fi.de.z);
            flux_momentum.x = cfdCentral(flux_momentum.x, factor, c_ff_flux[2], fi.mx.z);
            flux_momentum.y = cfdCentral(flux_momentum.y, factor, c_ff_flux[5], fi.my.z);
            flux_momentum.z = cfdCentral(flux_momentum.z, factor, c_ff_flux[8], fi.mz.z);
        }
    }
    fluxes[i] = flux_density;
    fluxes[nelr + i] = flux_momentum.x;
    fluxes[2 * nelr + i] = flux_momentum.y;
    fluxes[3 * nelr + i] = flux_momentum.z;
    fluxes[4 * nelr + i] = flux_de;
}

__global__ void cfdTimeStep(int j, int nelr, const float *old_variables, float *variables, const float *step_factors,
                            const float *fluxes)
{
    const int i = blockIdx.x * CFD_T + threadIdx.x;
    const float factor = __fdiv_rn(step_factors[i], (float)(CFD_RK + 1 - j));
#pragma unroll
    for (int v = 0; v < CFD_NVAR; v++)
        variables[v * nelr + i] = __fadd_rn(old_variables[v * nelr + i], __fmul_rn(factor, fluxes[v * nelr + i]));
}
