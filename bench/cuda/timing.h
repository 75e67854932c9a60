//===----------------------------------------------------------------------===//
// Wall-clock time and the median of repeated runs, shared by the CUDA
// benchmarks (each is one .cpp built by build.sh, no library).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_BENCH_CUDA_TIMING_H
#define GPUMEM_BENCH_CUDA_TIMING_H

#include <algorithm>
#include <chrono>
#include <vector>

/// Seconds on a monotonic clock.
inline double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The median of `v` (the mean of the two middle values for an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif // GPUMEM_BENCH_CUDA_TIMING_H
