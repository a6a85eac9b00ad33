#include "CLinearAlgebra.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>

// The CBLAS enum values (the reference CBLAS ABI, which OpenBLAS keeps), so the build needs no BLAS headers.
enum { ROW_MAJOR = 101, NO_TRANSPOSE = 111, TRANSPOSE = 112 };

typedef void (*sgemm_function)(int order, int transpose_a, int transpose_b, int m, int n, int k, float alpha,
                               const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);

static sgemm_function sgemm;
static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER;
static void *library;
static int users;

void shelfed_blas_limit_threads(void) { setenv("OPENBLAS_NUM_THREADS", "1", 0); }

static int load(void) {
    // Normally a no-op by now (see the header): `shelfed serve` and `make test-swift` set it before any thread starts.
    shelfed_blas_limit_threads();
    library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
    sgemm = (sgemm_function)dlsym(library, "cblas_sgemm");
    void (*set_threads)(int) = (void (*)(int))dlsym(library, "openblas_set_num_threads");
    if (sgemm == NULL || set_threads == NULL) {
        dlclose(library);
        library = NULL;
        sgemm = NULL;
        return -1;
    }
    set_threads(1);
    return 0;
}

int shelfed_blas_start(void) {
    pthread_mutex_lock(&library_lock);
    int result = library != NULL ? 0 : load();
    if (result == 0) users += 1;
    pthread_mutex_unlock(&library_lock);
    return result;
}

void shelfed_blas_stop(void) {
    pthread_mutex_lock(&library_lock);
    if (users > 0 && --users == 0 && library != NULL) {
        // OpenBLAS's own clean-up runs at dlclose and frees its GEMM buffer (~21 MiB kept from the first call on).
        dlclose(library);
        library = NULL;
        sgemm = NULL;
    }
    pthread_mutex_unlock(&library_lock);
}

void shelfed_sgemm(int transpose_a, int transpose_b, int m, int n, int k, float alpha, const float *a, int lda,
                   const float *b, int ldb, float beta, float *c, int ldc) {
    sgemm(ROW_MAJOR, transpose_a ? TRANSPOSE : NO_TRANSPOSE, transpose_b ? TRANSPOSE : NO_TRANSPOSE, m, n, k, alpha,
          a, lda, b, ldb, beta, c, ldc);
}

int shelfed_set_thread_nice(int nice) {
    // With `who` 0, Linux applies the value to the calling thread only, not the whole process.
    return setpriority(PRIO_PROCESS, 0, nice);
}

