// The same computations as bench/cpu/*.mlir as serial C++ loops, the
// baseline the CPU target is measured against (compiled with -O2). Prints
// "<name> <best seconds> <check>" per benchmark.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

template <typename F> static double best(int runs, F body) {
  double result = 1e30;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    auto t1 = std::chrono::steady_clock::now();
    result = std::min(result, std::chrono::duration<double>(t1 - t0).count());
  }
  return result;
}

int main() {
  {
    const int n = 1 << 22;
    std::vector<float> x(n, 1.0f), y(n, 0.0f);
    float a = 2.0f;
    double t = best(10, [&] {
      for (int i = 0; i < n; ++i)
        y[i] = a * x[i] + y[i];
    });
    std::printf("elementwise %g %g\n", t, y[n - 1]);
  }
  {
    const int n = 1 << 22;
    std::vector<float> x(n, 1.0f);
    volatile float sink = 0;
    double t = best(10, [&] {
      float sum = 0;
      for (int i = 0; i < n; ++i)
        sum += x[i];
      sink = sum;
    });
    std::printf("reduction %g %g\n", t, (float)sink);
  }
  {
    const int n = 256;
    std::vector<float> a(n * n, 1.0f), b(n * n, 1.0f), c(n * n);
    double t = best(5, [&] {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          float s = 0;
          for (int k = 0; k < n; ++k)
            s += a[i * n + k] * b[k * n + j];
          c[i * n + j] = s;
        }
    });
    std::printf("matmul %g %g\n", t, c[n * n - 1]);
  }
  {
    const int n = 1024;
    std::vector<float> in(n * n), out(n * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        in[i * n + j] = j;
    double t = best(10, [&] {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          out[j * n + i] = in[i * n + j];
    });
    std::printf("transpose %g %g\n", t, out[1 * n + 0]);
  }
  return 0;
}
