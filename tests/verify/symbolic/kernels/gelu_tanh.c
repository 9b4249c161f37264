/* tanh GELU for float, as inference code writes it: the item under test of
   tests/verify/symbolic/test_compiled_witness.cpp, compiled as C (the plain
   build) and with float replaced by symerr::SymbolicError (the analysis). */
#include <math.h>

#include "gelu_tanh.h"

float gelu_tanh(float x) {
  const float c = 0.7978845608f; /* sqrt(2 / pi) */
  return 0.5f * x * (1.0f + tanhf(c * (x + 0.044715f * x * x * x)));
}
