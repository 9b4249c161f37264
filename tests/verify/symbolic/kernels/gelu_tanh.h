/* tanh GELU for float, as inference code writes it (the approximation of
   Hendrycks and Gimpel, used by GPT-2 style models). */
#ifndef GELU_TANH_H
#define GELU_TANH_H
float gelu_tanh(float x);
#endif
