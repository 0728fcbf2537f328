/* Granary's GROUP BY operator for hosts that are not C++: plain C (C99 or later, or C++), over
 * the C++ API of granary/groupby.h, whose contracts (threads, NULLs, memory) hold here too.
 *
 *   granary_group_by* group_by;
 *   granary_group_by_create(fields, 2, keys, 1, aggregates, 2, NULL, &group_by, &error);
 *   // On each host thread:
 *   granary_local_sink* sink;
 *   granary_local_sink_create(group_by, &sink, &error);
 *   granary_local_sink_sink(sink, columns, 2, rows, &error);    // any number of batches
 *   granary_group_by_combine(group_by, sink, &error);           // consumes the sink
 *   // Once every sink is combined:
 *   granary_result_stream* result;
 *   granary_group_by_finish(group_by, &result, &error);
 *   granary_result_batch* batch;
 *   while (granary_result_stream_next(result, &batch, &error) == GRANARY_OK && batch != NULL)
 *   {
 *       ... granary_result_batch_column(batch, 0, &column, &error) ...
 *       granary_result_batch_destroy(batch);
 *   }
 *   granary_result_stream_destroy(result);
 *   granary_group_by_destroy(group_by);
 *
 * Errors: every function that can fail returns a granary_status, GRANARY_OK (0) or the code of
 * granary/error.h's ErrorCode (GRANARY_ERROR_* below), and fills its last argument, an optional
 * granary_error, with the code and a message naming the function and the culprit. No exception
 * or abort crosses this API: a NULL pointer where one is required is GRANARY_ERROR_BAD_ARGUMENTS,
 * running out of memory GRANARY_ERROR_MEMORY_LIMIT_EXCEEDED, anything unforeseen
 * GRANARY_ERROR_LOGICAL_ERROR. Out-pointers are set to NULL when a call fails.
 *
 * Ownership: the caller releases every handle it gets with its _destroy function (NULL is
 * ignored), except a sink handed to granary_group_by_combine, which that call consumes. Handles
 * may be destroyed in any order: a sink keeps its group_by's state alive, results do not need
 * it. Strings, arrays and column buffers passed in are read during the call only. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "granary/arrow_c_data.h"
#include "granary/version.h"

#ifdef __cplusplus
extern "C"
{
#endif

    /* ---- Errors ---- */

    /** GRANARY_OK, or one of the error codes below (granary/error.h's ErrorCode numbers). */
    typedef int granary_status;

    /** The codes this API returns; granary_error_code_name names any code. */
    enum granary_error_code
    {
        GRANARY_OK = 0,
        GRANARY_ERROR_BAD_ARGUMENTS = 36,    /**< a NULL or out-of-range argument, a bad batch */
        GRANARY_ERROR_UNKNOWN_FUNCTION = 46, /**< an aggregate function Granary does not have */
        GRANARY_ERROR_UNKNOWN_COLUMN = 47,   /**< a key, argument, filter or order column */
        GRANARY_ERROR_LOGICAL_ERROR = 49,    /**< a bug in Granary */
        GRANARY_ERROR_UNKNOWN_TYPE = 50,     /**< an Arrow format Granary does not read */
        GRANARY_ERROR_TYPE_MISMATCH = 53,    /**< an aggregate or filter over a wrong type */
        GRANARY_ERROR_INCORRECT_DATA = 117,  /**< an Arrow array or stream that is not valid */
        GRANARY_ERROR_TOO_LARGE_SIZE = 131,  /**< a result too large for its Arrow format */
        GRANARY_ERROR_MEMORY_LIMIT_EXCEEDED = 241, /**< max_memory_usage, the budget, or malloc */
        GRANARY_ERROR_VALUE_OUT_OF_RANGE = 321,    /**< an integer sum that overflows its type */
        GRANARY_ERROR_QUERY_CANCELLED = 394        /**< granary_group_by_cancel was called */
    };

#define GRANARY_ERROR_MESSAGE_SIZE 512

    /** What a failed call reports: its code, and a message (NUL-terminated, truncated to fit) that
     *  names the function and the culprit. A successful call sets code 0 and an empty message. */
    typedef struct granary_error
    {
        int code;
        char message[GRANARY_ERROR_MESSAGE_SIZE];
    } granary_error;

    /** The ClickHouse name of a code ("MEMORY_LIMIT_EXCEEDED"; "UNKNOWN" for no known code). The
     *  string is static. */
    const char* granary_error_code_name(int code);

    /** The version of the library linked (GRANARY_VERSION_STRING is the headers'). Static. */
    const char* granary_version_string(void);

    /* ---- Types and columns ---- */

    /** Column types, in granary::TypeId's order. Date: days since 1970-01-01 in 16 bits; DateTime:
     *  seconds since the epoch in 32 bits (UTC). */
    typedef enum granary_type
    {
        GRANARY_TYPE_UINT8,
        GRANARY_TYPE_UINT16,
        GRANARY_TYPE_UINT32,
        GRANARY_TYPE_UINT64,
        GRANARY_TYPE_INT8,
        GRANARY_TYPE_INT16,
        GRANARY_TYPE_INT32,
        GRANARY_TYPE_INT64,
        GRANARY_TYPE_FLOAT32,
        GRANARY_TYPE_FLOAT64,
        GRANARY_TYPE_DATE,
        GRANARY_TYPE_DATETIME,
        GRANARY_TYPE_STRING
    } granary_type;

    /** One column of a batch, in memory that stays the caller's: fixed-width values in `data`, or a
     *  String column as `chars` plus rows + 1 `offsets` (row i is chars[offsets[i], offsets[i +
     * 1])). `validity`: NULL when every row is valid, else an Arrow bitmap (bit set = valid, least
     *  significant bit first) where row i is bit validity_offset + i. Unused pointers are NULL. */
    typedef struct granary_column
    {
        granary_type type;
        const void* data;
        const char* chars;
        const uint64_t* offsets;
        const uint8_t* validity;
        size_t validity_offset;
    } granary_column;

    /* ---- The plan ---- */

    /** An input column. A NOT NULL one (nullable 0) must come without a validity bitmap. */
    typedef struct granary_field
    {
        const char* name;
        granary_type type;
        int nullable;
    } granary_field;

    /** A function of the library (count, sum, avg, min, max, uniqExact... and fIf) over
     *  `arguments` (none for count(*)), with `parameters` for a parametric function (NULL and 0
     *  for none). NULL arguments are skipped; with a `filter` (a UInt8 column; NULL for none) the
     *  rows where it is 0 or NULL are skipped too. */
    typedef struct granary_aggregate
    {
        const char* function;
        const char* const* arguments;
        size_t argument_count;
        const char* result_name;
        const char* filter;
        const double* parameters;
        size_t parameter_count;
    } granary_aggregate;

    /** The host's scheduler: every parallel phase calls run(user_data, count, task, task_data),
     *  which must call task(task_data, i) for every i in [0, count), on any threads, and return
     * once all have returned. `task` never fails and may call run again (a nested region: running
     * it on the calling thread will do). `concurrency` (at least 1) is how many tasks run at once.
     */
    typedef struct granary_task_runner
    {
        size_t concurrency;
        void (*run)(void* user_data, size_t count, void (*task)(void* task_data, size_t index),
                    void* task_data);
        void* user_data;
    } granary_task_runner;

    /** The host's memory account: reserve(user_data, bytes) is asked before every large allocation
     *  (non-zero grants, 0 refuses: the call fails with GRANARY_ERROR_MEMORY_LIMIT_EXCEEDED), and
     *  release gives back what was granted. Called from any of the query's threads at once. */
    typedef struct granary_memory_budget
    {
        int (*reserve)(void* user_data, size_t bytes);
        void (*release)(void* user_data, size_t bytes);
        void* user_data;
    } granary_memory_budget;

    typedef struct granary_settings
    {
        size_t threads;                      /**< Granary's own threads; 0: the machine's cores */
        size_t max_memory_usage;             /**< bytes; 0: no limit of Granary's own */
        size_t result_batch_rows;            /**< the most rows a result batch has */
        granary_task_runner task_runner;     /**< run NULL: Granary's own threads */
        granary_memory_budget memory_budget; /**< reserve and release NULL: no budget */
    } granary_settings;

    /** Fills `settings` with the defaults (those of a NULL settings argument). NULL is ignored. */
    void granary_settings_init(granary_settings* settings);

    /** Opaque handles. */
    typedef struct granary_group_by granary_group_by;
    typedef struct granary_local_sink granary_local_sink;
    typedef struct granary_result_stream granary_result_stream;
    typedef struct granary_result_batch granary_result_batch;

    /** A GROUP BY `keys` (none: one result row) computing `aggregates` over input `fields`.
     *  `settings` may be NULL; the callbacks in it are used until the group_by and all its sinks
     *  are destroyed. An array may be NULL where its count is 0. */
    granary_status granary_group_by_create(const granary_field* fields, size_t field_count,
                                           const char* const* keys, size_t key_count,
                                           const granary_aggregate* aggregates,
                                           size_t aggregate_count, const granary_settings* settings,
                                           granary_group_by** out, granary_error* error);

    /** The same with the input described by an Arrow schema (a struct with one child per column),
     *  which stays the caller's; results keep the input's Arrow types. */
    granary_status granary_group_by_create_arrow(const struct ArrowSchema* schema,
                                                 const char* const* keys, size_t key_count,
                                                 const granary_aggregate* aggregates,
                                                 size_t aggregate_count,
                                                 const granary_settings* settings,
                                                 granary_group_by** out, granary_error* error);

    /** Stops the query, from any thread: later sinks and finish fail with
     *  GRANARY_ERROR_QUERY_CANCELLED. */
    granary_status granary_group_by_cancel(granary_group_by* group_by, granary_error* error);

    /** Releases the caller's handle; sinks not yet destroyed keep the query's state until then. */
    void granary_group_by_destroy(granary_group_by* group_by);

    /* ---- Input ---- */

    /** A sink for one host thread: used by one thread at a time, it takes no lock. */
    granary_status granary_local_sink_create(granary_group_by* group_by, granary_local_sink** out,
                                             granary_error* error);

    /** Aggregates a batch of `rows` rows: one column per input field, in the plan's order. */
    granary_status granary_local_sink_sink(granary_local_sink* sink, const granary_column* columns,
                                           size_t column_count, size_t rows, granary_error* error);

    /** Aggregates an Arrow batch (a struct array with one child per input column, or the column
     *  itself for a one-column input), read in place; the array stays the caller's. */
    granary_status granary_local_sink_sink_arrow(granary_local_sink* sink,
                                                 const struct ArrowArray* batch,
                                                 granary_error* error);

    /** Aggregates every batch of an Arrow stream whose schema matches the input, releasing each
     *  batch once read; the stream stays the caller's. */
    granary_status granary_local_sink_sink_arrow_stream(granary_local_sink* sink,
                                                        struct ArrowArrayStream* stream,
                                                        granary_error* error);

    /** Hands a sink's partial result to its group_by, O(1). Consumes `sink`, also when it fails
     *  (for instance for a sink of another group_by). Thread-safe. */
    granary_status granary_group_by_combine(granary_group_by* group_by, granary_local_sink* sink,
                                            granary_error* error);

    /** Releases a sink that will not be combined, and what it aggregated. */
    void granary_local_sink_destroy(granary_local_sink* sink);

    /* ---- Result ---- */

    /** Merges every combined sink and returns the result: keys, then aggregates. Once per
     *  group_by, after every sink is combined. */
    granary_status granary_group_by_finish(granary_group_by* group_by, granary_result_stream** out,
                                           granary_error* error);

    /** An ORDER BY column of granary_group_by_finish_top. */
    typedef struct granary_order_column
    {
        const char* name;
        int descending;
    } granary_order_column;

    /** granary_group_by_finish keeping only the first `rows` groups in `order` (ORDER BY ...
     *  LIMIT rows): the groups that cannot be among them are never built. */
    granary_status granary_group_by_finish_top(granary_group_by* group_by,
                                               const granary_order_column* order,
                                               size_t order_count, size_t rows,
                                               granary_result_stream** out, granary_error* error);

    /** The next batch into *out, or NULL at the end. Thread-safe: threads pulling at once get
     *  different rows. */
    granary_status granary_result_stream_next(granary_result_stream* stream,
                                              granary_result_batch** out, granary_error* error);

    /** Moves the batches not yet pulled into an Arrow stream (one consumer, which releases it);
     *  `stream` is empty afterwards and still to be destroyed. */
    granary_status granary_result_stream_export_arrow(granary_result_stream* stream,
                                                      struct ArrowArrayStream* out,
                                                      granary_error* error);

    void granary_result_stream_destroy(granary_result_stream* stream);

    granary_status granary_result_batch_rows(const granary_result_batch* batch, size_t* rows,
                                             granary_error* error);
    granary_status granary_result_batch_column_count(const granary_result_batch* batch,
                                                     size_t* count, granary_error* error);

    /** The name of column `index`, valid while the batch lives and is not exported. */
    granary_status granary_result_batch_column_name(const granary_result_batch* batch, size_t index,
                                                    const char** name, granary_error* error);

    /** A view of column `index` (with a bitmap where it has NULLs), valid while the batch lives and
     *  is not exported. */
    granary_status granary_result_batch_column(const granary_result_batch* batch, size_t index,
                                               granary_column* column, granary_error* error);

    /** Moves the batch into an Arrow struct array, one child per column (each child releasable on
     *  its own), described by `schema`: the caller releases both. The batch is empty afterwards and
     *  still to be destroyed. */
    granary_status granary_result_batch_export_arrow(granary_result_batch* batch,
                                                     struct ArrowArray* array,
                                                     struct ArrowSchema* schema,
                                                     granary_error* error);

    void granary_result_batch_destroy(granary_result_batch* batch);

#ifdef __cplusplus
}
#endif
