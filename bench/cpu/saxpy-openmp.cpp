// The elementwise benchmark (y = a * x + y over 2^22 floats, best of 10) as
// an OpenMP loop compiled for this machine (-O3 -march=native -fopenmp):
// what the memory system allows, and how it scales from 1 to 2 threads
// (OMP_NUM_THREADS). Prints "elementwise <best seconds> <check>".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  const long n = 1L << 22;
  std::vector<float> x(n, 1.0f), y(n, 0.0f);
  float a = 2.0f;
  float *xs = x.data(), *ys = y.data();
  double best = 1e30;
  for (int r = 0; r < 10; ++r) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      ys[i] = a * xs[i] + ys[i];
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  std::printf("elementwise %g %g\n", best, y[n - 1]);
}
