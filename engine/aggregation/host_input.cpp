#include "engine/aggregation/host_input.h"

#include <algorithm>
#include <cstring>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// Computed columns are named with a leading control character, which no SQL identifier or
/// Arrow field a host passes on purpose has, so they never shadow a host column.
constexpr char kComputedPrefix = '\x01';

/// `key` with its NULL rows' values zeroed ("" for strings), without a bitmap, in `out`.
ColumnView zeroNulls(const ColumnView& key, Column& out)
{
    out = Column(key.type);
    if (isString(key.type))
    {
        out.reserve(key.rows);
        for (size_t row = 0; row < key.rows; ++row)
        {
            out.appendString(key.isValid(row) ? key.stringAt(row) : std::string_view());
        }
        return out.view();
    }
    const size_t width = fixedWidth(key.type);
    out.resizeFixedUninitialized(key.rows);
    if (key.rows == 0)
    {
        return out.view();
    }
    char* values = out.mutableData<char>();
    std::memcpy(values, key.data, key.rows * width);
    for (size_t row = 0; row < key.rows; ++row)
    {
        if (!key.isValid(row))
        {
            std::memset(values + row * width, 0, width);
        }
    }
    return out.view();
}

/// A UInt8 column of `rows` rows, all `value`, in `out`'s buffer (reused across batches).
uint8_t* fillBytes(Column& out, size_t rows, uint8_t value)
{
    out.resizeFixedUninitialized(rows);
    if (rows > 0)  // an empty buffer may have no address, which memset must not get
    {
        std::memset(out.mutableData<uint8_t>(), value, rows);
    }
    return out.mutableData<uint8_t>();
}

/// Whether `column` has a NULL row: its bitmap read a word at a time, so that batches whose
/// bitmaps say "all valid" cost a few microseconds, not a test per row.
bool hasNulls(const ColumnView& column)
{
    if (!column.hasValidity())
    {
        return false;
    }
    constexpr size_t kWordBits = 64;
    size_t row = 0;
    while (row < column.rows && (column.validity_offset + row) % 8 != 0)
    {
        if (!column.isValid(row++))
        {
            return true;
        }
    }
    const uint8_t* bytes = column.validity + (column.validity_offset + row) / 8;
    for (; row + kWordBits <= column.rows; row += kWordBits, bytes += sizeof(uint64_t))
    {
        uint64_t word;
        std::memcpy(&word, bytes, sizeof(word));
        if (word != ~uint64_t{0})
        {
            return true;
        }
    }
    for (; row < column.rows; ++row)
    {
        if (!column.isValid(row))
        {
            return true;
        }
    }
    return false;
}

}  // namespace

HostInput::HostInput(std::vector<HostColumn> columns, std::vector<std::string> keys,
                     const std::vector<HostAggregate>& aggregates,
                     const std::vector<std::string>& also_read)
    : host_columns_(std::move(columns)), read_columns_(host_columns_.size())
{
    for (CorePlan& plan : core_plans_)
    {
        for (const HostColumn& column : host_columns_)
        {
            plan.columns.push_back({column.name, column.type});
        }
        plan.keys = keys;
    }
    for (const std::string& name : also_read)
    {
        read_columns_[columnIndex(name, "the plan")] = true;
    }
    CorePlan& null_keys = core_plans_[size_t(KeyLane::kNullKeys)];
    for (size_t k = 0; k < keys.size(); ++k)
    {
        const size_t column = columnIndex(keys[k], "GROUP BY");
        read_columns_[column] = true;
        if (host_columns_[column].nullable)
        {
            const std::string flag = kComputedPrefix + keys[k] + " is NULL";
            nullable_keys_.push_back({column, k, null_keys.keys.size()});
            null_keys.columns.push_back({flag, TypeId::UInt8});
            null_keys.keys.push_back(flag);
        }
    }
    std::vector<InputColumn> mask_columns;
    std::vector<AggregateDescription> core_aggregates;
    for (const HostAggregate& aggregate : aggregates)
    {
        AggregateDescription core{aggregate.function, aggregate.arguments, aggregate.result_name,
                                  "", aggregate.parameters};
        Mask mask;
        for (const std::string& argument : aggregate.arguments)
        {
            const size_t column = columnIndex(argument, "arguments of " + aggregate.function);
            read_columns_[column] = true;
            if (host_columns_[column].nullable)
            {
                mask.nullable_arguments.push_back(column);
            }
        }
        if (!aggregate.filter.empty())
        {
            mask.filter = columnIndex(aggregate.filter, "the filter of " + aggregate.function);
            read_columns_[*mask.filter] = true;
            if (host_columns_[*mask.filter].type != TypeId::UInt8)
            {
                throw Exception(ErrorCode::kTypeMismatch,
                                "the filter of " + aggregate.function + " ('" + aggregate.filter +
                                    "') must be UInt8, not " +
                                    std::string(typeName(host_columns_[*mask.filter].type)));
            }
        }
        if (!mask.nullable_arguments.empty() || mask.filter)
        {
            core.mask = kComputedPrefix + std::string("mask of ") + aggregate.result_name + " #" +
                        std::to_string(masks_.size());
            mask_columns.push_back({core.mask, TypeId::UInt8});
            core.null_without_values = true;
            masks_.push_back(std::move(mask));
        }
        core_aggregates.push_back(std::move(core));
    }
    for (CorePlan& plan : core_plans_)
    {
        plan.columns.insert(plan.columns.end(), mask_columns.begin(), mask_columns.end());
        plan.aggregates = core_aggregates;
    }
}

size_t HostInput::columnIndex(const std::string& name, std::string_view role) const
{
    for (size_t i = 0; i < host_columns_.size(); ++i)
    {
        if (host_columns_[i].name == name)
        {
            return i;
        }
    }
    throw Exception(ErrorCode::kUnknownColumn,
                    "unknown column '" + name + "' in " + std::string(role));
}

void HostInput::checkBatch(std::span<const ColumnView> batch, size_t rows) const
{
    if (batch.size() != host_columns_.size())
    {
        throw Exception(ErrorCode::kBadArguments, "a batch has " + std::to_string(batch.size()) +
                                                      " columns, the plan " +
                                                      std::to_string(host_columns_.size()));
    }
    for (size_t c = 0; c < batch.size(); ++c)
    {
        const HostColumn& expected = host_columns_[c];
        const ColumnView& column = batch[c];
        auto fail = [&](const std::string& what)
        {
            throw Exception(ErrorCode::kBadArguments, "column " + std::to_string(c) + " ('" +
                                                          expected.name + "') of a batch " + what);
        };
        if (column.type != expected.type)
        {
            fail("is " + std::string(typeName(column.type)) + ", the plan expects " +
                 std::string(typeName(expected.type)));
        }
        if (column.rows != rows)
        {
            fail("has " + std::to_string(column.rows) + " rows, the batch " + std::to_string(rows));
        }
        if (!read_columns_[c])
        {
            continue;
        }
        if (column.hasValidity() && !expected.nullable)
        {
            fail("has a validity bitmap, but the plan declares it NOT NULL");
        }
        const bool has_values = isString(column.type) ? column.offsets != nullptr &&
                                                            (column.chars != nullptr || rows == 0)
                                                      : column.data != nullptr || rows == 0;
        if (!has_values)
        {
            fail("has no values buffer");
        }
    }
}

void HostInput::adapt(std::span<const ColumnView> batch, size_t rows, Scratch& scratch,
                      LaneBatches& lanes) const
{
    checkBatch(batch, rows);
    LaneBatch& non_null = lanes[size_t(KeyLane::kNonNullKeys)];
    LaneBatch& null_keys = lanes[size_t(KeyLane::kNullKeys)];
    Scratch::Lane& non_null_scratch = scratch.lanes[size_t(KeyLane::kNonNullKeys)];
    Scratch::Lane& null_keys_scratch = scratch.lanes[size_t(KeyLane::kNullKeys)];
    null_keys.columns.clear();
    null_keys.rows = 0;
    if (splitByNullKeys(batch, rows, scratch))
    {
        gatherLane(batch, non_null_scratch, non_null);
        gatherLane(batch, null_keys_scratch, null_keys);
        computeMasks(null_keys_scratch, null_keys);
        addNullFlags(null_keys_scratch, null_keys);
        appendMasks(null_keys_scratch, null_keys);
    }
    else
    {
        non_null.columns.assign(batch.begin(), batch.end());
        non_null.rows = rows;
    }
    computeMasks(non_null_scratch, non_null);
    for (const NullableKey& key : nullable_keys_)
    {
        non_null.columns[key.column].validity = nullptr;  // every key of this lane is valid
    }
    appendMasks(non_null_scratch, non_null);
}

bool HostInput::splitByNullKeys(std::span<const ColumnView> batch, size_t rows,
                                Scratch& scratch) const
{
    if (std::none_of(nullable_keys_.begin(), nullable_keys_.end(),
                     [&](const NullableKey& key) { return hasNulls(batch[key.column]); }))
    {
        return false;
    }
    std::vector<uint32_t>& non_null = scratch.lanes[size_t(KeyLane::kNonNullKeys)].rows;
    std::vector<uint32_t>& null_keys = scratch.lanes[size_t(KeyLane::kNullKeys)].rows;
    non_null.clear();
    null_keys.clear();
    for (size_t row = 0; row < rows; ++row)
    {
        const bool has_null_key =
            std::any_of(nullable_keys_.begin(), nullable_keys_.end(),
                        [&](const NullableKey& key) { return !batch[key.column].isValid(row); });
        (has_null_key ? null_keys : non_null).push_back(static_cast<uint32_t>(row));
    }
    return true;
}

void HostInput::gatherLane(std::span<const ColumnView> batch, Scratch::Lane& scratch,
                           LaneBatch& lane) const
{
    lane.rows = scratch.rows.size();
    lane.columns.clear();
    scratch.gathered.resize(batch.size());
    for (size_t c = 0; c < batch.size(); ++c)
    {
        if (read_columns_[c])
        {
            lane.columns.push_back(replaceWithRows(batch[c], scratch.rows, scratch.gathered[c]));
        }
        else  // never read: its length only, as a host may pass no buffers for it
        {
            ColumnView unread;
            unread.type = batch[c].type;
            unread.rows = lane.rows;
            lane.columns.push_back(unread);
        }
    }
}

void HostInput::addNullFlags(Scratch::Lane& scratch, LaneBatch& lane) const
{
    const size_t keys = nullable_keys_.size();
    scratch.computed.resize(2 * keys + masks_.size());
    for (size_t i = 0; i < keys; ++i)
    {
        const ColumnView key = lane.columns[nullable_keys_[i].column];
        Column& flags = scratch.computed[keys + i];
        if (!key.hasValidity())
        {
            fillBytes(flags, lane.rows, 0);
        }
        else
        {
            flags.resizeFixedUninitialized(lane.rows);
            for (size_t row = 0; row < lane.rows; ++row)
            {
                flags.mutableData<uint8_t>()[row] = key.isValid(row) ? 0 : 1;
            }
            lane.columns[nullable_keys_[i].column] = zeroNulls(key, scratch.computed[i]);
        }
        lane.columns.push_back(flags.view());
    }
}

void HostInput::computeMasks(Scratch::Lane& scratch, const LaneBatch& lane) const
{
    const size_t first = 2 * nullable_keys_.size();
    scratch.computed.resize(first + masks_.size());
    for (size_t m = 0; m < masks_.size(); ++m)
    {
        uint8_t* mask = fillBytes(scratch.computed[first + m], lane.rows, 1);
        for (size_t argument : masks_[m].nullable_arguments)
        {
            const ColumnView& values = lane.columns[argument];
            for (size_t row = 0; values.hasValidity() && row < lane.rows; ++row)
            {
                mask[row] &= values.isValid(row) ? 1 : 0;
            }
        }
        if (masks_[m].filter)
        {
            const ColumnView& filter = lane.columns[*masks_[m].filter];
            const uint8_t* keep = static_cast<const uint8_t*>(filter.data);
            for (size_t row = 0; row < lane.rows; ++row)
            {
                mask[row] &= (keep[row] != 0 && filter.isValid(row)) ? 1 : 0;
            }
        }
    }
}

void HostInput::appendMasks(const Scratch::Lane& scratch, LaneBatch& lane) const
{
    const size_t first = 2 * nullable_keys_.size();
    for (size_t m = 0; m < masks_.size(); ++m)
    {
        lane.columns.push_back(scratch.computed[first + m].view());
    }
}

void HostInput::restoreNullKeys(Block& fragment) const
{
    for (const NullableKey& key : nullable_keys_)
    {
        fragment.columns[key.result_key].column.setNullWhere(fragment.columns[key.flag_key].column);
    }
    if (!nullable_keys_.empty())
    {
        const auto first_flag =
            fragment.columns.begin() + static_cast<std::ptrdiff_t>(nullable_keys_.front().flag_key);
        fragment.columns.erase(first_flag,
                               first_flag + static_cast<std::ptrdiff_t>(nullable_keys_.size()));
    }
}

}  // namespace granary
