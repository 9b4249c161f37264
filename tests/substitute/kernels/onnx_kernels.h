/* Small ONNX-style C reference kernels (test fixtures for the type
 * substitution): a tensor is a rank, its dims and a malloc'd row-major
 * `double*` buffer. Plain C99: nothing here knows symerr. */
#ifndef ONNX_KERNELS_H
#define ONNX_KERNELS_H

#define TENSOR_MAX_RANK 4

typedef struct tensor {
  int rank;
  int dims[TENSOR_MAX_RANK];
  double* data;
} tensor;

tensor* tensor_new(int rank, const int* dims);
void tensor_free(tensor* t);
int tensor_size(const tensor* t);

/* y = a + b, y = a * b (same shapes) */
void onnx_add(const tensor* a, const tensor* b, tensor* y);
void onnx_mul(const tensor* a, const tensor* b, tensor* y);
/* y[M,N] = a[M,K] b[K,N], sequential dot products */
void onnx_matmul(const tensor* a, const tensor* b, tensor* y);
/* the same with each multiply-add fused: acc = fma(a, b, acc) (C99 fma, one rounding) */
void onnx_matmul_fma(const tensor* a, const tensor* b, tensor* y);
/* NCHW convolution, weights [M,C,KH,KW], optional bias [M] (may be 0) */
void onnx_conv2d(const tensor* x, const tensor* w, const tensor* bias, int stride, int dilation, int pad,
                 tensor* y);
void onnx_relu(const tensor* x, tensor* y);
void onnx_leakyrelu(const tensor* x, double alpha, tensor* y);
/* y = c > 0 ? a : b */
void onnx_where(const tensor* c, const tensor* a, const tensor* b, tensor* y);
void onnx_clip(const tensor* x, double lo, double hi, tensor* y);
void onnx_softshrink(const tensor* x, double lambd, tensor* y);
/* NCHW max pooling, k x k window, stride s, no padding: a running maximum with fmax */
void onnx_maxpool(const tensor* x, int k, int s, tensor* y);
/* the same with the running maximum written as a comparison: if (v > m) m = v */
void onnx_maxpool_if(const tensor* x, int k, int s, tensor* y);
/* NCHW batch normalization (inference): scale, bias, mean, var per channel */
void onnx_batchnorm(const tensor* x, const tensor* scale, const tensor* bias, const tensor* mean,
                    const tensor* var, double eps, tensor* y);
/* softmax over the last axis of a rank-1 tensor: running max, exp, sum, divide */
void onnx_softmax(const tensor* x, tensor* y);
/* the same with the running maximum written as a comparison of the inputs: if (x[i] > m) m = x[i] */
void onnx_softmax_if(const tensor* x, tensor* y);

#endif
