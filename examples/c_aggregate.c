/* A C program hands its own arrays to Granary's GROUP BY through the C API (granary/granary.h):
 * SELECT region, count(*), sum(amount), count(DISTINCT user) GROUP BY region, where some users
 * are NULL (not counted). Exits non-zero on any error. */

#include <granary/granary.h>
#include <stdio.h>

#define ROWS 12
#define COLUMNS 3
#define AGGREGATES 3

static const uint32_t region[ROWS] = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
static const uint64_t user[ROWS] = {7, 8, 9, 7, 0, 9, 5, 8, 0, 6, 8, 9};
/* Arrow's validity bitmap, least significant bit first: rows 4 and 8 have no user. */
static const uint8_t user_valid[] = {0xEF, 0xFE};
static const double amount[ROWS] = {1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12.25};

static const granary_field fields[COLUMNS] = {{"region", GRANARY_TYPE_UINT32, 0},
                                              {"user", GRANARY_TYPE_UINT64, 1},
                                              {"amount", GRANARY_TYPE_FLOAT64, 0}};
static const granary_column columns[COLUMNS] = {
    {GRANARY_TYPE_UINT32, region, NULL, NULL, NULL, 0},
    {GRANARY_TYPE_UINT64, user, NULL, NULL, user_valid, 0},
    {GRANARY_TYPE_FLOAT64, amount, NULL, NULL, NULL, 0}};
static const char* const keys[] = {"region"};
static const char* const amount_argument[] = {"amount"};
static const char* const user_argument[] = {"user"};
static const granary_aggregate aggregates[AGGREGATES] = {
    {"count", NULL, 0, "hits", NULL},
    {"sum", amount_argument, 1, "total", NULL},
    {"uniqExact", user_argument, 1, "users", NULL}};

/* What the result adds up to. */
struct totals
{
    unsigned long long groups;
    unsigned long long hits;
};

/* Sinks the arrays from one local sink (a host thread's) and hands the sink back. */
static granary_status sink_arrays(granary_group_by* group_by, granary_error* error)
{
    granary_local_sink* sink = NULL;
    granary_status status = granary_local_sink_create(group_by, &sink, error);
    if (status == GRANARY_OK)
    {
        status = granary_local_sink_sink(sink, columns, COLUMNS, ROWS, error);
    }
    if (status != GRANARY_OK)
    {
        granary_local_sink_destroy(sink);
        return status;
    }
    return granary_group_by_combine(group_by, sink, error); /* consumes the sink */
}

/* Prints a batch's groups. */
static granary_status print_batch(const granary_result_batch* batch, struct totals* totals,
                                  granary_error* error)
{
    granary_column column[1 + AGGREGATES]; /* the key, then the aggregates */
    size_t rows = 0;
    size_t c;
    size_t row;
    granary_status status = granary_result_batch_rows(batch, &rows, error);
    for (c = 0; c < 1 + AGGREGATES && status == GRANARY_OK; ++c)
    {
        status = granary_result_batch_column(batch, c, &column[c], error);
    }
    for (row = 0; row < rows && status == GRANARY_OK; ++row)
    {
        const uint64_t hits = ((const uint64_t*)column[1].data)[row];
        printf("region %u: hits %llu total %.2f users %llu\n",
               ((const uint32_t*)column[0].data)[row], (unsigned long long)hits,
               ((const double*)column[2].data)[row],
               (unsigned long long)((const uint64_t*)column[3].data)[row]);
        totals->hits += hits;
        ++totals->groups;
    }
    return status;
}

/* Finishes the query and prints every batch of its result. */
static granary_status print_result(granary_group_by* group_by, struct totals* totals,
                                   granary_error* error)
{
    granary_result_stream* result = NULL;
    granary_result_batch* batch = NULL;
    granary_status status = granary_group_by_finish(group_by, &result, error);
    while (status == GRANARY_OK &&
           (status = granary_result_stream_next(result, &batch, error)) == GRANARY_OK &&
           batch != NULL)
    {
        status = print_batch(batch, totals, error);
        granary_result_batch_destroy(batch);
    }
    granary_result_stream_destroy(result);
    return status;
}

int main(void)
{
    granary_group_by* group_by = NULL;
    granary_error error;
    struct totals totals = {0, 0};
    granary_status status;
    printf("Granary %s, through its C API\n", granary_version_string());
    status = granary_group_by_create(fields, COLUMNS, keys, 1, aggregates, AGGREGATES, NULL,
                                     &group_by, &error);
    if (status == GRANARY_OK)
    {
        status = sink_arrays(group_by, &error);
    }
    if (status == GRANARY_OK)
    {
        status = print_result(group_by, &totals, &error);
    }
    granary_group_by_destroy(group_by);
    if (status != GRANARY_OK)
    {
        fprintf(stderr, "error %d (%s): %s\n", status, granary_error_code_name(status),
                error.message);
        return 1;
    }
    printf("groups %llu, rows %llu\n", totals.groups, totals.hits);
    return totals.hits == ROWS ? 0 : 1;
}
