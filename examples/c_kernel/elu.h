void elu(const float* x, float* y, int n);
