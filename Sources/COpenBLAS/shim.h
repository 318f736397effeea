// OpenBLAS's C interface: cblas_sgemm for the neural model's matrix products, openblas_set_num_threads for its
// per-process thread count (both declared in Debian's cblas.h, pkg-config openblas).
#include <cblas.h>
