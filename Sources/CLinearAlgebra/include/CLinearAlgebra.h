// Shelfed's window on OpenBLAS, for the sentence-embedding encoder (DESIGN §14). Like libvips, OpenBLAS is opened
// with dlopen when a text is embedded, not linked, and closed again with the idle model: a server that is not
// embedding maps none of it and keeps none of its buffers.
#ifndef SHELFED_CLINEARALGEBRA_H
#define SHELFED_CLINEARALGEBRA_H

/// Loads OpenBLAS (Debian's libopenblas0) if it is not loaded, limited to one thread so a Pi keeps a core for pages,
/// and counts one more user of it. 0 on success, -1 when it is not installed or lacks a function used here.
int shelfed_blas_start(void);

/// Sets OPENBLAS_NUM_THREADS=1 (unless it is set), which OpenBLAS reads when it loads: without it, it starts a thread
/// per core. Call it before any thread may start a process: adding a variable can move the environment while a
/// thread starting a process copies it, a crash seen once in a full test run. Not from a C constructor either: the
/// static Swift runtime finds argv from the environment's address, and moving it there made every command `serve`.
void shelfed_blas_limit_threads(void);

/// Counts one user fewer; the last one unloads OpenBLAS, so an idle server gives back the buffers it keeps. No
/// `shelfed_sgemm` may be under way for a user that has stopped.
void shelfed_blas_stop(void);

/// C = alpha · op(A) · op(B) + beta · C for row-major float matrices, where op(X) is X, or X transposed when
/// `transpose_x` is set; op(A) is m × k, op(B) k × n, C m × n. Only call between a shelfed_blas_start that returned 0
/// and its shelfed_blas_stop.
void shelfed_sgemm(int transpose_a, int transpose_b, int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc);

/// Lowers the calling thread's scheduling priority to `nice` (Linux keeps a nice value per thread), so background
/// embedding takes only the CPU that pages leave. 0 on success.
int shelfed_set_thread_nice(int nice);

#endif
