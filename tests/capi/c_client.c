/* A host written in C: a GROUP BY through granary/granary.h with a task runner of its own.
 * Built as strict C99, it proves the header is C. */
#include "tests/capi/c_client.h"

#include <string.h>

/* Runs a region's tasks on the calling thread, one after another. */
static void run_on_calling_thread(void* user_data, size_t count,
                                  void (*task)(void* task_data, size_t index), void* task_data)
{
    size_t index;
    (void)user_data;
    for (index = 0; index < count; ++index)
    {
        task(task_data, index);
    }
}

/* Appends a batch's groups to the caller's arrays as far as `capacity` goes; counts them all. */
static granary_status append_batch(const granary_result_batch* batch, uint32_t* out_keys,
                                   int64_t* out_sums, size_t capacity, size_t* groups,
                                   granary_error* error)
{
    granary_column key;
    granary_column sum;
    size_t rows = 0;
    size_t row;
    granary_status status = granary_result_batch_rows(batch, &rows, error);
    if (status == GRANARY_OK)
    {
        status = granary_result_batch_column(batch, 0, &key, error);
    }
    if (status == GRANARY_OK)
    {
        status = granary_result_batch_column(batch, 1, &sum, error);
    }
    for (row = 0; status == GRANARY_OK && row < rows; ++row, ++*groups)
    {
        if (*groups < capacity)
        {
            out_keys[*groups] = ((const uint32_t*)key.data)[row];
            out_sums[*groups] = ((const int64_t*)sum.data)[row];
        }
    }
    return status;
}

/* Every batch of `result`, appended. */
static granary_status append_result(granary_result_stream* result, uint32_t* out_keys,
                                    int64_t* out_sums, size_t capacity, size_t* groups,
                                    granary_error* error)
{
    granary_result_batch* batch = NULL;
    granary_status status;
    while ((status = granary_result_stream_next(result, &batch, error)) == GRANARY_OK &&
           batch != NULL)
    {
        status = append_batch(batch, out_keys, out_sums, capacity, groups, error);
        granary_result_batch_destroy(batch);
        if (status != GRANARY_OK)
        {
            break;
        }
    }
    return status;
}

granary_status c_client_sum_by_key(const uint32_t* keys, const int64_t* values, size_t rows,
                                   uint32_t* out_keys, int64_t* out_sums, size_t capacity,
                                   size_t* groups, granary_error* error)
{
    const granary_field fields[] = {{"key", GRANARY_TYPE_UINT32, 0},
                                    {"value", GRANARY_TYPE_INT64, 0}};
    const char* const group_keys[] = {"key"};
    const char* const sum_arguments[] = {"value"};
    const granary_aggregate aggregates[] = {{"sum", sum_arguments, 1, "total", NULL}};
    granary_column columns[2];
    granary_settings settings;
    granary_group_by* group_by = NULL;
    granary_local_sink* sink = NULL;
    granary_result_stream* result = NULL;
    granary_status status;

    memset(columns, 0, sizeof columns);
    columns[0].type = GRANARY_TYPE_UINT32;
    columns[0].data = keys;
    columns[1].type = GRANARY_TYPE_INT64;
    columns[1].data = values;
    granary_settings_init(&settings);
    settings.task_runner.concurrency = 1;
    settings.task_runner.run = run_on_calling_thread;
    *groups = 0;

    status = granary_group_by_create(fields, 2, group_keys, 1, aggregates, 1, &settings, &group_by,
                                     error);
    if (status == GRANARY_OK)
    {
        status = granary_local_sink_create(group_by, &sink, error);
    }
    if (status == GRANARY_OK)
    {
        status = granary_local_sink_sink(sink, columns, 2, rows, error);
    }
    if (status == GRANARY_OK)
    {
        status = granary_group_by_combine(group_by, sink, error);
        sink = NULL; /* consumed, also on error */
    }
    if (status == GRANARY_OK)
    {
        status = granary_group_by_finish(group_by, &result, error);
    }
    if (status == GRANARY_OK)
    {
        status = append_result(result, out_keys, out_sums, capacity, groups, error);
    }
    granary_result_stream_destroy(result);
    granary_local_sink_destroy(sink);
    granary_group_by_destroy(group_by);
    return status;
}
