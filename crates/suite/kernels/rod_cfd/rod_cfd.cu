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

// A cell's accumulated flux: density, momentum, density * energy.
struct CfdFlux {
    float density, de;
    float3 momentum;
};

__device__ __forceinline__ float cfdAxis(float3 v, int d)
{
    return d == 0 ? v.x : (d == 1 ? v.y : v.z);
}

// Central flux through a face of normal n: per axis d, half of n_d times the sum of the other
// side's and the cell's contributions (momentum for density, then density * energy, then the
// three momentum fluxes), in that order.
__device__ __forceinline__ void cfdCentralFace(CfdFlux &f, float3 n, float3 momentum_o, const CfdFluxes &fo,
                                               const CfdState &si, const CfdFluxes &fi)
{
#pragma unroll
    for (int d = 0; d < 3; d++) {
        const float factor = __fmul_rn(0.5f, cfdAxis(n, d));
        f.density = cfdCentral(f.density, factor, cfdAxis(momentum_o, d), cfdAxis(si.momentum, d));
        f.de = cfdCentral(f.de, factor, cfdAxis(fo.de, d), cfdAxis(fi.de, d));
        f.momentum.x = cfdCentral(f.momentum.x, factor, cfdAxis(fo.mx, d), cfdAxis(fi.mx, d));
        f.momentum.y = cfdCentral(f.momentum.y, factor, cfdAxis(fo.my, d), cfdAxis(fi.my, d));
        f.momentum.z = cfdCentral(f.momentum.z, factor, cfdAxis(fo.mz, d), cfdAxis(fi.mz, d));
    }
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
    CfdFlux f = {0.0f, 0.0f, make_float3(0.0f, 0.0f, 0.0f)};
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
            f.density = __fadd_rn(f.density, __fmul_rn(factor, __fsub_rn(si.density, sn.density)));
            f.de = __fadd_rn(f.de, __fmul_rn(factor, __fsub_rn(si.de, sn.de)));
            f.momentum.x = __fadd_rn(f.momentum.x, __fmul_rn(factor, __fsub_rn(si.momentum.x, sn.momentum.x)));
            f.momentum.y = __fadd_rn(f.momentum.y, __fmul_rn(factor, __fsub_rn(si.momentum.y, sn.momentum.y)));
            f.momentum.z = __fadd_rn(f.momentum.z, __fmul_rn(factor, __fsub_rn(si.momentum.z, sn.momentum.z)));
            // Central flux: the mean of both cells' flux contributions through the face.
            cfdCentralFace(f, n, sn.momentum, cfdFluxes(sn), si, fi);
        } else if (nb == CFD_WALL) {
            // The wall pushes back with the cell's pressure.
            f.momentum.x = __fadd_rn(f.momentum.x, __fmul_rn(n.x, si.pressure));
            f.momentum.y = __fadd_rn(f.momentum.y, __fmul_rn(n.y, si.pressure));
            f.momentum.z = __fadd_rn(f.momentum.z, __fmul_rn(n.z, si.pressure));
        } else if (nb == CFD_FAR_FIELD) {
            // The free stream's momentum and flux contributions (c_ff_flux: mx, my, mz, de).
            CfdFluxes ff;
            ff.mx = make_float3(c_ff_flux[0], c_ff_flux[1], c_ff_flux[2]);
            ff.my = make_float3(c_ff_flux[3], c_ff_flux[4], c_ff_flux[5]);
            ff.mz = make_float3(c_ff_flux[6], c_ff_flux[7], c_ff_flux[8]);
            ff.de = make_float3(c_ff_flux[9], c_ff_flux[10], c_ff_flux[11]);
            cfdCentralFace(f, n, make_float3(c_ff_variable[1], c_ff_variable[2], c_ff_variable[3]), ff, si, fi);
        }
    }
    fluxes[i] = f.density;
    fluxes[nelr + i] = f.momentum.x;
    fluxes[2 * nelr + i] = f.momentum.y;
    fluxes[3 * nelr + i] = f.momentum.z;
    fluxes[4 * nelr + i] = f.de;
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
