/* ONNX-style C reference kernels: see onnx_kernels.h. */
#include "onnx_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

tensor* tensor_new(int rank, const int* dims) {
  tensor* t = malloc(sizeof(tensor));
  int n = 1;
  t->rank = rank;
  for (int i = 0; i < rank; ++i) {
    t->dims[i] = dims[i];
    n *= dims[i];
  }
  t->data = malloc((size_t)n * sizeof(double));
  memset(t->data, 0, (size_t)n * sizeof(double));
  return t;
}

void tensor_free(tensor* t) {
  free(t->data);
  free(t);
}

int tensor_size(const tensor* t) {
  int n = 1;
  for (int i = 0; i < t->rank; ++i) n *= t->dims[i];
  return n;
}

void onnx_add(const tensor* a, const tensor* b, tensor* y) {
  const int n = tensor_size(y);
  for (int i = 0; i < n; ++i) y->data[i] = a->data[i] + b->data[i];
}

void onnx_mul(const tensor* a, const tensor* b, tensor* y) {
  const int n = tensor_size(y);
  for (int i = 0; i < n; ++i) y->data[i] = a->data[i] * b->data[i];
}

void onnx_matmul(const tensor* a, const tensor* b, tensor* y) {
  const int M = a->dims[0], K = a->dims[1], N = b->dims[1];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k) acc += a->data[i * K + k] * b->data[k * N + j];
      y->data[i * N + j] = acc;
    }
}

void onnx_matmul_fma(const tensor* a, const tensor* b, tensor* y) {
  const int M = a->dims[0], K = a->dims[1], N = b->dims[1];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k) acc = fma(a->data[i * K + k], b->data[k * N + j], acc);
      y->data[i * N + j] = acc;
    }
}

void onnx_conv2d(const tensor* x, const tensor* w, const tensor* bias, int stride, int dilation, int pad,
                 tensor* y) {
  const int N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  const int M = w->dims[0], KH = w->dims[2], KW = w->dims[3];
  const int OH = y->dims[2], OW = y->dims[3];
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m)
      for (int oh = 0; oh < OH; ++oh)
        for (int ow = 0; ow < OW; ++ow) {
          double acc = 0;
          if (bias) acc = bias->data[m];
          for (int c = 0; c < C; ++c)
            for (int kh = 0; kh < KH; ++kh)
              for (int kw = 0; kw < KW; ++kw) {
                const int ih = oh * stride - pad + kh * dilation;
                const int iw = ow * stride - pad + kw * dilation;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                acc += x->data[((n * C + c) * H + ih) * W + iw] * w->data[((m * C + c) * KH + kh) * KW + kw];
              }
          y->data[((n * M + m) * OH + oh) * OW + ow] = acc;
        }
}

void onnx_relu(const tensor* x, tensor* y) {
  const int n = tensor_size(y);
  for (int i = 0; i < n; ++i) {
    double v = x->data[i];
    y->data[i] = v < 0 ? 0 : v;
  }
}

void onnx_leakyrelu(const tensor* x, double alpha, tensor* y) {
  const int n = tensor_size(y);
  for (int i = 0; i < n; ++i) {
    double v = x->data[i];
    if (v < 0) v = alpha * v;
    y->data[i] = v;
  }
}

void onnx_where(const tensor* c, const tensor* a, const tensor* b, tensor* y) {
  const int n = tensor_size(y);
  for (int i = 0; i < n; ++i) y->data[i] = c->data[i] > 0 ? a->data[i] : b->data[i];
}

void onnx_clip(const tensor* x, double lo, double hi, tensor* y) {
  const int n = tensor_size(y);
  for (int i = 0; i < n; ++i) {
    double v = x->data[i];
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    y->data[i] = v;
  }
}

/* Shrink with bias = lambd (soft shrink), as C math writes it: the magnitude
   shrunk by lambd and floored at 0 (fdim), the sign put back (copysign). */
void onnx_softshrink(const tensor* x, double lambd, tensor* y) {
  const int n = tensor_size(y);
  for (int i = 0; i < n; ++i) y->data[i] = copysign(fdim(fabs(x->data[i]), lambd), x->data[i]);
}

void onnx_maxpool(const tensor* x, int k, int s, tensor* y) {
  const int N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  const int OH = y->dims[2], OW = y->dims[3];
  for (int nc = 0; nc < N * C; ++nc)
    for (int oh = 0; oh < OH; ++oh)
      for (int ow = 0; ow < OW; ++ow) {
        double m = x->data[(nc * H + oh * s) * W + ow * s];
        for (int i = 0; i < k; ++i)
          for (int j = 0; j < k; ++j) m = fmax(m, x->data[(nc * H + oh * s + i) * W + ow * s + j]);
        y->data[(nc * OH + oh) * OW + ow] = m;
      }
}

void onnx_maxpool_if(const tensor* x, int k, int s, tensor* y) {
  const int N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  const int OH = y->dims[2], OW = y->dims[3];
  for (int nc = 0; nc < N * C; ++nc)
    for (int oh = 0; oh < OH; ++oh)
      for (int ow = 0; ow < OW; ++ow) {
        double m = x->data[(nc * H + oh * s) * W + ow * s];
        for (int i = 0; i < k; ++i)
          for (int j = 0; j < k; ++j) {
            double v = x->data[(nc * H + oh * s + i) * W + ow * s + j];
            if (v > m) m = v;
          }
        y->data[(nc * OH + oh) * OW + ow] = m;
      }
}

void onnx_batchnorm(const tensor* x, const tensor* scale, const tensor* bias, const tensor* mean,
                    const tensor* var, double eps, tensor* y) {
  const int N = x->dims[0], C = x->dims[1], HW = x->dims[2] * x->dims[3];
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c) {
      const double d = var->data[c] + eps;
      const double den = sqrt(d);
      for (int i = 0; i < HW; ++i) {
        const int o = (n * C + c) * HW + i;
        y->data[o] = scale->data[c] * (x->data[o] - mean->data[c]) / den + bias->data[c];
      }
    }
}

void onnx_softmax(const tensor* x, tensor* y) {
  const int n = tensor_size(x);
  double m = x->data[0];
  for (int i = 1; i < n; ++i) m = fmax(m, x->data[i]);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    y->data[i] = exp(x->data[i] - m);
    sum += y->data[i];
  }
  for (int i = 0; i < n; ++i) y->data[i] = y->data[i] / sum;
}

void onnx_softmax_if(const tensor* x, tensor* y) {
  const int n = tensor_size(x);
  double m = x->data[0];
  for (int i = 1; i < n; ++i)
    if (x->data[i] > m) m = x->data[i];
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    y->data[i] = exp(x->data[i] - m);
    sum += y->data[i];
  }
  for (int i = 0; i < n; ++i) y->data[i] = y->data[i] / sum;
}
