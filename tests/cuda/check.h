// Shared checks for warpsim's CUDA runtime test programs (scripts/test-cudart.sh).
// A program prints "PASS <name>" as its last line when every check held; any failed check
// prints "FAIL file:line: what" on stderr and exits with status 1.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Built with -DCHECK_KEEP_GOING (scripts/native-check.sh, on a real GPU) a failed check is
// reported and the program goes on, so one run shows every place where the GPU and the
// program's expectations differ, not only the first.
// (Each check reports its first failure only: checks sit in loops.)
#ifdef CHECK_KEEP_GOING
#define CHECK_FAILED() ((void)0)
#define CHECK_FIRST_ONLY()      \
    static int reported_ = 0;   \
    if (reported_++) break
#else
#define CHECK_FAILED() exit(1)
#define CHECK_FIRST_ONLY() ((void)0)
#endif

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            CHECK_FIRST_ONLY();                                                             \
            fprintf(stderr, "FAIL %s:%d: %s returned %s (%s)\n", __FILE__, __LINE__, #call, \
                    cudaGetErrorName(e_), cudaGetErrorString(e_));                          \
            CHECK_FAILED();                                                                 \
        }                                                                                   \
    } while (0)

#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            CHECK_FIRST_ONLY();                                                \
            fprintf(stderr, "FAIL %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            CHECK_FAILED();                                                          \
        }                                                                      \
    } while (0)

// The call must fail with exactly `code`.
#define EXPECT_ERR(call, code)                                                                \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != (code)) {                                                                   \
            CHECK_FIRST_ONLY();                                                               \
            fprintf(stderr, "FAIL %s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, \
                    #call, cudaGetErrorName(e_), cudaGetErrorName(code));                     \
            CHECK_FAILED();                                                                   \
        }                                                                                     \
    } while (0)

// WARPSIM_ONLY(stmt); marks one check of what only warpsim does, in a program that is otherwise
// portable: its memory checker, its 4 GiB device, its refusal of a call that a GPU's driver does
// not check (or crashes on). Built with -DNATIVE_GPU (scripts/native-check.sh, on a real GPU)
// the whole statement is skipped, the call it checks included: keep a call whose side effects
// later code needs outside the macro, and check only its result inside.
#ifdef NATIVE_GPU
#define WARPSIM_ONLY(...) ((void)0)
#else
#define WARPSIM_ONLY(...) __VA_ARGS__
#endif
