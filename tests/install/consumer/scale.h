/* scale.c's functions; read once per substitution region (hence no include
   guard: each region declares them in its own namespace, on its own type). */
double* scale_relu(const double* x, int n, double alpha, double beta);
void release(double* p);
