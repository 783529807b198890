#pragma once
// COHORT_VECTOR_CLONES: with GCC on x86-64 ELF, a kernel marked with it is also compiled for AVX2 and the build is
// picked at load time (target_clones); elsewhere it is compiled once. For the collectives' vectorized loops
// (FastQuant.cpp, ValueBounds.cpp).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#  define COHORT_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#  define COHORT_VECTOR_CLONES
#endif
