// A C++ kernel that throws out of its C entry point (tests/report/test_faults.cpp).
#include <cstddef>
#include <stdexcept>

extern "C" void throwing_div(const float* a, const float* b, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (b[i] == 0.0f) throw std::runtime_error("division by zero refused");
    y[i] = a[i] / b[i];
  }
}
