// Shared checks for warpsim's CUDA runtime test programs (scripts/test-cudart.sh).
// A program prints "PASS <name>" as its last line when every check held; any failed check
// prints "FAIL file:line: what" on stderr and exits with status 1.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "FAIL %s:%d: %s returned %s (%s)\n", __FILE__, __LINE__, #call, \
                    cudaGetErrorName(e_), cudaGetErrorString(e_));                          \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "FAIL %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

// The call must fail with exactly `code`.
#define EXPECT_ERR(call, code)                                                                \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != (code)) {                                                                   \
            fprintf(stderr, "FAIL %s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, \
                    #call, cudaGetErrorName(e_), cudaGetErrorName(code));                     \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)
