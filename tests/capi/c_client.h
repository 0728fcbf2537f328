/* A host written in C (c_client.c), called by the C API's suite. */
#pragma once

#include "granary/granary.h"

#ifdef __cplusplus
extern "C"
{
#endif

    /** SELECT key, sum(value) GROUP BY key over `rows` rows, run from C with a task runner of its
     *  own that runs every task on the calling thread: writes up to `capacity` groups into
     *  `out_keys` and `out_sums` (in the result's order) and their count into `groups`. */
    granary_status c_client_sum_by_key(const uint32_t* keys, const int64_t* values, size_t rows,
                                       uint32_t* out_keys, int64_t* out_sums, size_t capacity,
                                       size_t* groups, granary_error* error);

#ifdef __cplusplus
}
#endif
