/* C reference kernels that mix float and double, as C allows
 * (mixed_kernels.c). */
#ifndef MIXED_KERNELS_H
#define MIXED_KERNELS_H

/* float data, products in float, the sum in double, narrowed on return */
float mixed_dot(const float* a, const float* b, int n);
/* products in double (exact for floats), the sum in double */
float mixed_dot_promoted(const float* a, const float* b, int n);
/* a double literal: the product in double, rounded to float on the store */
void mixed_scale(const float* x, float* y, int n);
/* float sum divided by an int (converted to float) */
float mixed_mean(const float* x, int n);
/* layer norm with double statistics and the double sqrt */
void mixed_layernorm(const float* x, float* y, int n);
/* softmax: float max, exp in double of a float difference, double sum */
void mixed_softmax(const float* x, float* y, int n);
/* relu compared with a double literal (a data-dependent branch) */
void mixed_relu(const float* x, float* y, int n);
/* y[i] = x[i] < 0.0 ? 0.0f : 2.0f * x[i] (a computed branch value) */
void mixed_relu_scaled(const float* x, float* y, int n);

#endif
