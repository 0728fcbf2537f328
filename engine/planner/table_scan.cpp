#include "engine/planner/table_scan.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>
#include <tuple>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"
#include "engine/exec/phase_recorder.h"
#include "engine/expressions/expression_node.h"
#include "engine/expressions/filter.h"
#include "engine/expressions/function_registry.h"
#include "engine/planner/granule_pruning.h"
#include "engine/sql/formatter.h"
#include "engine/sql/overloaded.h"

namespace granary
{
namespace
{

/// Progress is reported at most this often (the native protocol's clients redraw on each).
constexpr int64_t kProgressIntervalNs = 10'000'000;

int64_t monotonicNanoseconds()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// The least (or, with `maximum`, the greatest) of `count` granule bounds from `first`, in the
/// order std::min / std::max give.
template <typename T>
T extremeOf(const ColumnView& bounds, size_t first, size_t count, bool maximum)
{
    T extreme = bounds.valueAt<T>(first);
    for (size_t g = 1; g < count; ++g)
    {
        const T value = bounds.valueAt<T>(first + g);
        extreme = maximum ? std::max(extreme, value) : std::min(extreme, value);
    }
    return extreme;
}

/// Functions whose value on any row of their argument's type is a value, never an error.
constexpr std::array<std::string_view, 2> kFunctionsWithoutErrors = {"length", "strlen"};

/// Whether `expression` evaluates to a value on every row: whole-morsel outputs are computed
/// on the rows the filter rejected too, which may be those it guards an expression from
/// (`intDiv(x, y) ... WHERE y <> 0`). Column references, literals, comparisons, logic,
/// +, -, * (which wrap), IN, extract and the functions above.
bool evaluatesWithoutErrors(const sql::Expression& expression)
{
    const auto operand = [](const sql::ExpressionPtr& e) { return evaluatesWithoutErrors(*e); };
    return std::visit(
        sql::Overloaded{
            [](const sql::Literal&) { return true; },
            [](const sql::ColumnRef&) { return true; },
            [&](const sql::UnaryOperation& unary) { return operand(unary.operand); },
            [&](const sql::BinaryOperation& binary)
            {
                return binary.op != sql::BinaryOperator::Divide &&
                       binary.op != sql::BinaryOperator::Modulo && operand(binary.left) &&
                       operand(binary.right);
            },
            [&](const sql::InList& in)
            { return operand(in.value) && std::ranges::all_of(in.list, operand); },
            [&](const sql::Extract& extract) { return operand(extract.source); },
            [&](const sql::FunctionCall& call)
            {
                const ScalarFunction* function = findScalarFunction(call.name);
                return function != nullptr &&
                       std::ranges::count(kFunctionsWithoutErrors, function->name) > 0 &&
                       std::ranges::all_of(call.arguments, operand);
            },
            [](const auto&) { return false; },
        },
        expression.node);
}

}  // namespace

/// A worker's memory between morsels: the rows that passed the filter and computed columns.
struct TableScan::ScanBuffers final : MorselBuffers
{
    std::vector<uint32_t> selected;
    bool every_row = true;  ///< Every row passed: `selected` is not filled.
    ColumnReadBuffer codes{DataType(TypeId::UInt32)};  ///< The filter column's codes.
    std::vector<ColumnReadBuffer> decoded;  ///< Per table column read: of an encoded part.
    std::vector<Column> gathered;           ///< Per table column the outputs read.
    std::vector<Column> computed;           ///< Per output.
    std::vector<Column> computed_whole;     ///< Per output computed over the whole morsel.
    ArrayJoinStep::Buffers array_join;
};

ColumnTypeLookup scannedColumnTypes(const TableSchema& schema)
{
    return [&schema](std::string_view name) -> std::optional<DataType>
    {
        if (const std::optional<size_t> index = schema.indexOf(name))
        {
            // States keep their type (finalizeAggregation reads it); its values are a String's.
            const DataType& type = schema.columns[*index].type;
            return type.isAggregateState() ? type : type.valueType();
        }
        return std::nullopt;
    };
}

TableScan::TableScan(std::shared_ptr<const TableSnapshot> snapshot, const TableSchema& schema,
                     const sql::ExpressionPtr& where, const std::vector<ScanOutput>& outputs,
                     const std::optional<sql::ArrayJoinClause>& array_join, ScanObserver observer,
                     ScanCaches caches, size_t morsel_granules)
    : snapshot_(std::move(snapshot)),
      schema_(schema),
      observer_(std::move(observer)),
      condition_cache_(where ? caches.condition : nullptr),
      decoded_cache_(caches.decoded)
{
    if (where)
    {
        condition_hash_ = std::hash<std::string>{}(sql::formatExpression(*where));
    }
    const ColumnTypeLookup lookup = scannedColumnTypes(schema_);
    std::set<size_t> read;
    std::set<size_t> output_read;
    if (where)
    {
        filter_ = compileExpression(where, lookup);
        if (!isInteger(filter_->type()) || filter_->type() == TypeId::Date ||
            filter_->type() == TypeId::DateTime)
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "WHERE at " + sql::describePosition(where->position) +
                                " must be a condition, not a value of type " +
                                std::string(typeName(filter_->type())));
        }
        for (const std::string& column : filter_->columns())
        {
            read.insert(*schema_.indexOf(column));
        }
    }
    const auto readByOutputs = [&](const std::vector<std::string>& columns)
    {
        for (const std::string& column : columns)
        {
            if (const std::optional<size_t> index = schema_.indexOf(column))
            {
                read.insert(*index);
                output_read.insert(*index);
            }
        }
    };
    ColumnTypeLookup output_lookup = lookup;
    if (array_join)
    {
        array_join_.emplace(*array_join, lookup);
        readByOutputs(array_join_->columns());
        output_lookup = array_join_->withElement(lookup);
    }
    for (const ScanOutput& output : outputs)
    {
        outputs_.push_back(compileExpression(output.expression, output_lookup));
        columns_.push_back({output.name, outputs_.back().dataType()});
        readByOutputs(outputs_.back().columns());  // The ARRAY JOIN element is no table column.
    }
    // The filter's columns come first: the others are read only when some row passes.
    for (const bool by_filter : {true, false})
    {
        for (const size_t column : read)
        {
            if (filterReads(schema_.columns[column].name) == by_filter)
            {
                read_columns_.push_back(column);
            }
        }
        if (by_filter)
        {
            filter_read_columns_ = read_columns_.size();
        }
    }
    output_read_columns_.assign(output_read.begin(), output_read.end());
    planWholeMorselOutputs(outputs);
    planRanges(GranulePruner(schema_, where), morsel_granules);
    if (decoded_cache_)
    {
        cache_fill_left_ = int64_t(decoded_cache_->maxBytes() / kCacheShareDivisor);
    }
    evaluateFilterOnDictionaries();
}

bool TableScan::filterReads(std::string_view column) const
{
    return filter_ && std::ranges::count(filter_->columns(), column) > 0;
}

void TableScan::planWholeMorselOutputs(const std::vector<ScanOutput>& outputs)
{
    const auto filter_reads = [&](const std::string& column) { return filterReads(column); };
    whole_morsel_outputs_.assign(outputs_.size(), false);
    for (size_t i = 0; filter_ && !array_join_ && i < outputs_.size(); ++i)
    {
        const CompiledExpression& output = outputs_[i];
        whole_morsel_outputs_[i] = fixedWidth(output.type()) != 0 && !output.isConstant() &&
                                   !outputs[i].expression->as<sql::ColumnRef>() &&
                                   std::ranges::all_of(output.columns(), filter_reads) &&
                                   evaluatesWithoutErrors(*outputs[i].expression);
    }
    gathered_when_dense_.assign(output_read_columns_.size(), false);
    for (size_t k = 0; k < output_read_columns_.size(); ++k)
    {
        const std::string& name = schema_.columns[output_read_columns_[k]].name;
        for (size_t i = 0; i < outputs_.size(); ++i)
        {
            gathered_when_dense_[k] =
                gathered_when_dense_[k] ||
                (!whole_morsel_outputs_[i] && std::ranges::count(outputs_[i].columns(), name) > 0);
        }
    }
}

void TableScan::evaluateFilterOnDictionaries()
{
    if (!filter_ || filter_read_columns_ != 1 ||
        !isString(schema_.columns[read_columns_[0]].type.id))
    {
        return;
    }
    entry_passes_.resize(snapshot_->parts.size());
    for (const Range& range : ranges_)
    {
        if (!entry_passes_[range.part])
        {
            entry_passes_[range.part] = dictionaryVerdicts(*snapshot_->parts[range.part]);
        }
    }
}

std::shared_ptr<const Column> TableScan::dictionaryVerdicts(const Part& part) const
{
    const size_t column = read_columns_[0];
    const std::optional<ColumnView> dictionary = part.dictionary(column);
    // NULL rows carry a code too, but the filter's verdict on NULL is not its verdict on
    // that code's string (`s IS NULL`, `s = ''`): such parts filter values.
    if (!dictionary || part.hasNulls(column))
    {
        return nullptr;
    }
    const auto evaluate = [&]
    {
        BlockView entries;
        entries.add(schema_.columns[column].name, *dictionary);
        std::vector<uint32_t> passing;
        filterRows(*filter_, entries, 0, dictionary->rows, passing);
        Column verdicts(TypeId::UInt8);
        verdicts.resizeFixed(dictionary->rows);
        for (const uint32_t entry : passing)
        {
            verdicts.mutableData<uint8_t>()[entry] = 1;
        }
        return verdicts;
    };
    if (!decoded_cache_)
    {
        return std::make_shared<const Column>(evaluate());
    }
    return decoded_cache_->findOrInsert(
        {part.id(), uint32_t(column), 0, ChunkForm::kVerdicts, condition_hash_}, evaluate);
}

void TableScan::planRanges(const GranulePruner& pruner, size_t morsel_granules)
{
    where_holds_for_every_row_ = pruner.provesWholeGranules();
    for (size_t p = 0; p < snapshot_->parts.size(); ++p)
    {
        const Part& part = *snapshot_->parts[p];
        std::vector<bool> mask = pruner.granulesToRead(part);
        if (condition_cache_)
        {
            const auto known = condition_cache_->read(cacheKey(part));
            if (known && known->granuleCount() == mask.size())
            {
                for (size_t g = 0; g < mask.size(); ++g)
                {
                    mask[g] = mask[g] && known->mayMatch(g);
                }
            }
        }
        if (where_holds_for_every_row_)
        {
            const std::vector<bool> whole = pruner.granulesMatchedWhole(part);
            for (size_t g = 0; g < mask.size(); ++g)
            {
                where_holds_for_every_row_ = where_holds_for_every_row_ && (!mask[g] || whole[g]);
            }
        }
        for (size_t g = 0; g < mask.size();)
        {
            if (!mask[g])
            {
                ++granules_skipped_;
                ++g;
                continue;
            }
            Range range{p, g, 0};
            while (g < mask.size() && mask[g] && range.granules < morsel_granules &&
                   (range.granules == 0 || g % Part::kChunkGranules != 0))
            {
                ++range.granules;
                ++g;
            }
            rows_to_read_ += std::min(range.granules * Part::kGranuleRows,
                                      part.rows() - range.first_granule * Part::kGranuleRows);
            ranges_.push_back(range);
        }
    }
}

std::optional<size_t> TableScan::sortKeyIndex(std::string_view column) const
{
    const auto key = std::find(schema_.sort_key.begin(), schema_.sort_key.end(), column);
    if (key == schema_.sort_key.end())
    {
        return std::nullopt;
    }
    return static_cast<size_t>(key - schema_.sort_key.begin());
}

std::optional<double> TableScan::sortKeyBound(size_t index, std::string_view column,
                                              bool maximum) const
{
    const std::optional<size_t> key = sortKeyIndex(column);
    if (!key)
    {
        return std::nullopt;
    }
    const Range& range = ranges_[index];
    const Part& part = *snapshot_->parts[range.part];
    const ColumnView bounds = maximum ? part.granuleMax(*key) : part.granuleMin(*key);
    if (isString(bounds.type))
    {
        return std::nullopt;
    }
    // Converting to double never reverses an order: the extreme's double is the doubles'.
    return dispatchFixedType(
        bounds.type, [&]<typename T>(TypeTag<T>)
        { return double(extremeOf<T>(bounds, range.first_granule, range.granules, maximum)); });
}

std::optional<Column> TableScan::sortKeyExtreme(std::string_view column, bool maximum) const
{
    const std::optional<size_t> key = sortKeyIndex(column);
    const std::optional<size_t> index = schema_.indexOf(column);
    if (!key || !index || ranges_.empty())
    {
        return std::nullopt;
    }
    const DataType& type = schema_.columns[*index].type;
    if (!isInteger(type.id) || type.nullable)
    {
        return std::nullopt;
    }
    Column extreme(type);
    dispatchFixedType(
        type.id,
        [&]<typename T>(TypeTag<T>)
        {
            std::optional<T> best;
            for (const Range& range : ranges_)
            {
                const Part& part = *snapshot_->parts[range.part];
                const T value =
                    extremeOf<T>(maximum ? part.granuleMax(*key) : part.granuleMin(*key),
                                 range.first_granule, range.granules, maximum);
                best = !best ? value : (maximum ? std::max(*best, value) : std::min(*best, value));
            }
            extreme.append(*best);
        });
    return extreme;
}

std::unique_ptr<MorselBuffers> TableScan::makeBuffers() const
{
    auto buffers = std::make_unique<ScanBuffers>();
    buffers->computed.resize(outputs_.size());
    buffers->computed_whole.resize(outputs_.size());
    for (size_t column : read_columns_)
    {
        buffers->decoded.emplace_back(schema_.columns[column].type);
    }
    for (size_t column : output_read_columns_)
    {
        buffers->gathered.emplace_back(schema_.columns[column].type);
    }
    return buffers;
}

/// One morsel's rows as the scan reads them: its part, its first row and row count.
struct TableScan::MorselRows
{
    const Part& part;
    size_t first;
    size_t rows;
};

size_t TableScan::readColumns(const MorselRows& morsel, size_t begin, size_t end,
                              ScanBuffers& buffers, BlockView& input) const
{
    size_t bytes = 0;
    for (size_t i = begin; i < end; ++i)
    {
        const size_t column = read_columns_[i];
        if (input.find(schema_.columns[column].name))
        {
            continue;
        }
        input.add(schema_.columns[column].name,
                  readColumn(morsel, column, morsel.first, morsel.rows, buffers.decoded[i]));
        bytes += morsel.part.bytesOf(column, morsel.first, morsel.rows);
    }
    return bytes;
}

bool TableScan::mayFillCache() const
{
    return cache_fill_left_.load(std::memory_order_relaxed) > 0;
}

void TableScan::chargeCacheFill(const ColumnReadBuffer& buffer) const
{
    if (buffer.added_bytes > 0)
    {
        cache_fill_left_.fetch_sub(int64_t(buffer.added_bytes), std::memory_order_relaxed);
    }
}

ColumnView TableScan::readColumn(const MorselRows& morsel, size_t column, size_t first_row,
                                 size_t rows, ColumnReadBuffer& buffer) const
{
    const ColumnView view =
        morsel.part.read(column, first_row, rows, buffer, decoded_cache_, mayFillCache());
    chargeCacheFill(buffer);
    return view;
}

bool TableScan::filterByDictionary(const Range& range, const MorselRows& morsel,
                                   ScanBuffers& buffers, size_t& bytes) const
{
    if (entry_passes_.empty() || !entry_passes_[range.part])
    {
        return false;
    }
    // The filter's one column, first of read_columns_.
    const size_t column = read_columns_[0];
    const std::optional<ColumnView> codes = morsel.part.readCodes(
        column, morsel.first, morsel.rows, buffers.codes, decoded_cache_, mayFillCache());
    chargeCacheFill(buffers.codes);
    if (!codes)
    {
        return false;  // Some granule stores its strings: the morsel is filtered as values.
    }
    bytes += morsel.part.bytesOf(column, morsel.first, morsel.rows);
    const uint8_t* passes = static_cast<const uint8_t*>(entry_passes_[range.part]->view().data);
    const uint32_t* code = static_cast<const uint32_t*>(codes->data);
    uint8_t* mask = scratchMask(morsel.rows);
    for (size_t row = 0; row < morsel.rows; ++row)
    {
        mask[row] = passes[code[row]];
    }
    selectMaskedRows(mask, morsel.rows, buffers.selected);
    return true;
}

size_t TableScan::gatherOutputColumns(const MorselRows& morsel, const BlockView& input, bool dense,
                                      ScanBuffers& buffers, BlockView& gathered) const
{
    size_t bytes = 0;
    for (size_t i = 0; i < output_read_columns_.size(); ++i)
    {
        if (dense && !gathered_when_dense_[i])
        {
            continue;
        }
        const size_t table_column = output_read_columns_[i];
        const std::string& name = schema_.columns[table_column].name;
        Column& column = buffers.gathered[i];
        column.clear();
        if (const std::optional<ColumnView> decoded = input.find(name))
        {
            gatherRows(*decoded, 0, buffers.selected, column);
        }
        else
        {
            const size_t position =
                std::ranges::find(read_columns_, table_column) - read_columns_.begin();
            ColumnReadBuffer& buffer = buffers.decoded[position];
            bytes += morsel.part.gather(table_column, morsel.first, buffers.selected, buffer,
                                        column, decoded_cache_, mayFillCache());
            chargeCacheFill(buffer);
        }
        gathered.add(name, column.view());
    }
    return bytes;
}

size_t TableScan::produce(size_t index, MorselBuffers* raw_buffers,
                          std::vector<ColumnView>& out) const
{
    if (observer_.cancel && observer_.cancel->load(std::memory_order_relaxed))
    {
        throw Exception(ErrorCode::kQueryCancelled, "query was cancelled");
    }
    auto& buffers = *static_cast<ScanBuffers*>(raw_buffers);
    const Range& range = ranges_[index];
    const Part& part = *snapshot_->parts[range.part];
    const size_t first = range.first_granule * Part::kGranuleRows;
    const MorselRows morsel{part, first,
                            std::min(range.granules * Part::kGranuleRows, part.rows() - first)};

    BlockView input;
    size_t bytes = 0;
    size_t passed = morsel.rows;
    // Whether `input` holds the filter's columns for every row (not when it ran on codes).
    bool filter_read_values = false;
    if (filter_)
    {
        buffers.selected.clear();
        if (!filterByDictionary(range, morsel, buffers, bytes))
        {
            bytes += readColumns(morsel, 0, filter_read_columns_, buffers, input);
            filterRows(*filter_, input, 0, morsel.rows, buffers.selected);
            filter_read_values = true;
        }
        passed = buffers.selected.size();
        if (condition_cache_)
        {
            rememberEmptyGranules(range, morsel.rows, buffers.selected);
        }
    }
    // The columns only the outputs read: read whole when every row passed, else only the
    // granules that hold the passing rows (none when no row passed).
    const BlockView* evaluated = &input;
    BlockView gathered;
    // Most rows passed: outputs over the filter's columns alone are computed for every row
    // and their fixed-width results gathered, instead of gathering their (string) columns.
    const BlockView* whole_morsel = nullptr;
    if (passed == morsel.rows)
    {
        bytes += readColumns(morsel, 0, read_columns_.size(), buffers, input);
    }
    else
    {
        const bool dense = filter_read_values && kDenseRowsPerPassingRow * passed >= morsel.rows;
        whole_morsel = dense ? &input : nullptr;
        bytes += gatherOutputColumns(morsel, input, dense, buffers, gathered);
        evaluated = &gathered;
    }

    buffers.every_row = passed == morsel.rows;
    passed = evaluateOutputs(*evaluated, passed, whole_morsel, buffers, out);
    reportProgress(morsel.rows, bytes);
    return passed;
}

size_t TableScan::evaluateOutputs(const BlockView& input, size_t rows,
                                  const BlockView* whole_morsel, ScanBuffers& buffers,
                                  std::vector<ColumnView>& out) const
{
    const BlockView* evaluated = &input;
    BlockView repeated;
    if (array_join_)
    {
        rows = array_join_->expand(input, rows, buffers.array_join, repeated);
        evaluated = &repeated;
    }
    out.clear();
    for (size_t i = 0; i < outputs_.size(); ++i)
    {
        if (whole_morsel && whole_morsel_outputs_[i])
        {
            const ColumnView whole = outputs_[i].evaluate(*whole_morsel, 0, whole_morsel->rows(),
                                                          buffers.computed_whole[i]);
            out.push_back(replaceWithRows(whole, buffers.selected, buffers.computed[i]));
            continue;
        }
        out.push_back(outputs_[i].evaluate(*evaluated, 0, rows, buffers.computed[i]));
    }
    return rows;
}

void TableScan::locateRows(size_t index, const MorselBuffers& raw_buffers,
                           std::span<const uint32_t> rows, std::vector<RowLocation>& out) const
{
    const auto& buffers = static_cast<const ScanBuffers&>(raw_buffers);
    const Range& range = ranges_[index];
    const size_t first = range.first_granule * Part::kGranuleRows;
    for (const uint32_t row : rows)
    {
        const size_t in_morsel = buffers.every_row ? row : buffers.selected[row];
        out.push_back({uint32_t(range.part), uint32_t(first + in_morsel)});
    }
}

Block TableScan::fetch(std::span<const RowLocation> rows) const
{
    // Read chunk by chunk (through the decoded-chunk cache) in row order (a gather's rows
    // ascend), then put back in `rows` order.
    std::vector<uint32_t> by_location(rows.size());
    std::iota(by_location.begin(), by_location.end(), 0);
    std::ranges::sort(
        by_location, [&](uint32_t a, uint32_t b)
        { return std::tie(rows[a].part, rows[a].row) < std::tie(rows[b].part, rows[b].row); });
    Block fetched;
    for (const InputColumn& column : columns_)
    {
        fetched.columns.push_back({column.name, Column(column.type)});
    }
    const auto buffers_holder = makeBuffers();
    auto& buffers = static_cast<ScanBuffers&>(*buffers_holder);
    std::vector<ColumnView> out;
    size_t bytes = 0;
    for (auto begin = by_location.begin(); begin != by_location.end();)
    {
        // The rows of one chunk of one part.
        const RowLocation& first_row = rows[*begin];
        const size_t chunk = first_row.row / Part::kChunkRows;
        const auto end = std::find_if(
            begin, by_location.end(),
            [&](uint32_t i)
            { return rows[i].part != first_row.part || rows[i].row / Part::kChunkRows != chunk; });
        const Part& part = *snapshot_->parts[first_row.part];
        const size_t chunk_first_row = chunk * Part::kChunkRows;
        buffers.selected.clear();
        for (auto i = begin; i != end; ++i)
        {
            buffers.selected.push_back(uint32_t(rows[*i].row - chunk_first_row));
        }
        const MorselRows chunk_rows{part, chunk_first_row,
                                    std::min(Part::kChunkRows, part.rows() - chunk_first_row)};
        BlockView gathered;
        bytes += gatherOutputColumns(chunk_rows, BlockView{}, false, buffers, gathered);
        const size_t produced =
            evaluateOutputs(gathered, buffers.selected.size(), nullptr, buffers, out);
        for (size_t c = 0; c < out.size(); ++c)
        {
            fetched.columns[c].column.appendRange(out[c], 0, produced);
        }
        begin = end;
    }
    reportProgress(0, bytes);
    std::vector<uint32_t> position(rows.size());
    for (uint32_t sorted = 0; sorted < by_location.size(); ++sorted)
    {
        position[by_location[sorted]] = sorted;
    }
    Block ordered;
    gatherBlockRows(fetched, position, ordered);
    return ordered;
}

QueryConditionCacheKey TableScan::cacheKey(const Part& part) const
{
    return QueryConditionCacheKey{0, part.id(), 0, condition_hash_};
}

void TableScan::rememberEmptyGranules(const Range& range, size_t rows,
                                      const std::vector<uint32_t>& selected) const
{
    std::vector<GranuleRange> empty;
    auto selected_row = selected.begin();
    for (size_t g = 0; g * Part::kGranuleRows < rows; ++g)
    {
        const size_t end_row = std::min((g + 1) * Part::kGranuleRows, rows);
        const bool any = selected_row != selected.end() && *selected_row < end_row;
        selected_row = std::lower_bound(selected_row, selected.end(), end_row);
        if (!any)
        {
            const size_t granule = range.first_granule + g;
            if (!empty.empty() && empty.back().end == granule)
            {
                ++empty.back().end;
            }
            else
            {
                empty.push_back({granule, granule + 1});
            }
        }
    }
    if (!empty.empty())
    {
        const Part& part = *snapshot_->parts[range.part];
        condition_cache_->write(cacheKey(part), part.granules(), empty, false);
    }
}

void TableScan::reportProgress(size_t rows, size_t bytes) const
{
    const size_t rows_read = rows_read_.fetch_add(rows) + rows;
    const size_t bytes_read = bytes_read_.fetch_add(bytes) + bytes;
    if (!observer_.on_progress)
    {
        return;
    }
    std::unique_lock lock(progress_mutex_, std::try_to_lock);
    const int64_t now = monotonicNanoseconds();
    if (lock.owns_lock() && now - last_progress_ns_ >= kProgressIntervalNs)
    {
        last_progress_ns_ = now;
        observer_.on_progress(rows_read, bytes_read, rows_to_read_);
    }
}

}  // namespace granary
