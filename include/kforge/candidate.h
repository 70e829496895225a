/* kforge native candidate interface, version 1.
 *
 * A native candidate is one C++ (`cpp`, CPU) or CUDA (`cuda`) source file that includes this
 * header, states the interface version it was written for with KFORGE_CANDIDATE(1), and defines
 * kforge_forward(). kforge compiles it to a shared library (g++ or nvcc) and calls it in place of
 * the reference model's forward: the inputs are the problem's get_inputs() tensors, the
 * parameters are the reference model's, by their state_dict names, and the outputs are already
 * allocated with the reference's shapes and dtypes (and filled with NaN: write every element).
 *
 * Plain C, no torch headers: it compiles in well under a second. docs/candidate-format.md has a
 * worked example. The layout of every struct here is fixed for a given version; a new version
 * adds, never changes.
 */
#ifndef KFORGE_CANDIDATE_H
#define KFORGE_CANDIDATE_H

#include <stddef.h>
#include <stdint.h>

#define KFORGE_INTERFACE_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kforge_dtype {
  KFORGE_FLOAT32 = 0,
  KFORGE_FLOAT16 = 1,
  KFORGE_BFLOAT16 = 2,
  KFORGE_FLOAT64 = 3,
  KFORGE_INT64 = 4,
  KFORGE_INT32 = 5,
  KFORGE_BOOL = 6,
  KFORGE_UINT8 = 7,
} kforge_dtype;

/* A dense tensor. Inputs and parameters are contiguous (row-major), outputs too. */
typedef struct kforge_tensor {
  void* data;            /* device memory for `cuda` candidates, host memory for `cpp` */
  kforge_dtype dtype;
  int32_t ndim;
  const int64_t* shape;  /* ndim entries */
  int64_t numel;
} kforge_tensor;

typedef struct kforge_context {
  int32_t interface_version;   /* KFORGE_INTERFACE_VERSION of the harness */
  int32_t num_inputs;
  const kforge_tensor* inputs; /* forward's tensor arguments, in order */
  int32_t num_scalars;
  const double* scalars;       /* forward's non-tensor arguments (ints, floats), in order */
  int32_t num_init_scalars;
  const double* init_scalars;  /* get_init_inputs()'s numbers (sizes, scale factors), in order */
  int32_t num_params;
  const char* const* param_names; /* state_dict names: "linear.weight", ... */
  const kforge_tensor* params;
  int32_t num_outputs;
  const kforge_tensor* outputs; /* preallocated; write them all */
  void* stream;                /* cudaStream_t to launch on (cuda); NULL on the CPU */
  void* cublas_handle;         /* cublasHandle_t bound to `stream`, or NULL (not requested) */
} kforge_context;

/* Returns 0 on success; otherwise writes a message of at most error_size bytes to `error`. */
typedef int (*kforge_forward_fn)(const kforge_context* ctx, char* error, size_t error_size);

#ifdef __cplusplus
}
#define KFORGE_EXTERN_C extern "C"
#else
#define KFORGE_EXTERN_C
#endif

/* Find a parameter by its state_dict name; NULL when there is none. */
static inline const kforge_tensor* kforge_param(const kforge_context* ctx, const char* name) {
  for (int32_t i = 0; i < ctx->num_params; ++i) {
    const char* a = ctx->param_names[i];
    const char* b = name;
    while (*a && *a == *b) { ++a; ++b; }
    if (*a == *b) return &ctx->params[i];
  }
  return NULL;
}

/* States the interface version the candidate was written for (kforge refuses versions it does
 * not know) and declares kforge_forward with C linkage. */
#define KFORGE_CANDIDATE(version)                                                      \
  KFORGE_EXTERN_C __attribute__((visibility("default"))) int kforge_interface_version(void) { \
    return (version);                                                                  \
  }                                                                                    \
  KFORGE_EXTERN_C __attribute__((visibility("default"))) int kforge_forward(           \
      const kforge_context* ctx, char* error, size_t error_size)

#endif /* KFORGE_CANDIDATE_H */
