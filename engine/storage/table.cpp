#include "engine/storage/table.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/common/exception.h"
#include "engine/storage/part_files.h"
#include "engine/storage/storage_files.h"
#include "engine/storage/table_insert.h"

namespace granary
{
namespace
{

constexpr const char* kSchemaFile = "schema.json";
constexpr const char* kManifestFile = "manifest.json";
constexpr const char* kManifestTemporaryFile = "tmp_manifest.json";
constexpr std::string_view kTemporaryPrefix = "tmp_";
constexpr std::string_view kPartPrefix = "part_";

[[noreturn]] void corrupted(const std::filesystem::path& file, const std::string& problem)
{
    throw Exception(ErrorCode::kCorruptedData,
                    "corrupted table file '" + file.string() + "': " + problem);
}

nlohmann::json readJson(const std::filesystem::path& path)
{
    try
    {
        return nlohmann::json::parse(readWholeFile(path));
    }
    catch (const nlohmann::json::exception& error)
    {
        corrupted(path, error.what());
    }
}

void writeJsonDurably(const std::filesystem::path& path, const nlohmann::json& json)
{
    const std::string text = json.dump(1);
    writeFileDurably(path, {std::span<const char>(text)});
}

nlohmann::json schemaJson(const std::string& name, const TableSchema& schema)
{
    nlohmann::json columns = nlohmann::json::array();
    for (const ColumnSchema& column : schema.columns)
    {
        columns.push_back({{"name", column.name},
                           {"type", dataTypeName(column.type)},
                           {"codec", column.codec.toString()}});
    }
    return {{"name", name},
            {"columns", columns},
            {"sort_key", schema.sort_key},
            {"storage_format", partFormatName(schema.part_format)}};
}

std::pair<std::string, TableSchema> parseSchema(const std::filesystem::path& path)
{
    const nlohmann::json json = readJson(path);
    try
    {
        TableSchema schema;
        for (const nlohmann::json& column : json.at("columns"))
        {
            DataType type;
            try
            {
                type = parseDataType(column.at("type").get<std::string>());
            }
            catch (const Exception& error)
            {
                corrupted(path, error.what());
            }
            // Tables from before codecs and encoded parts: LZ4, raw parts.
            schema.columns.push_back(
                {column.at("name").get<std::string>(), std::move(type),
                 encoding::CodecChoice::parse(column.value("codec", std::string("LZ4")))});
        }
        schema.part_format = partFormatFromName(json.value("storage_format", std::string("raw")));
        schema.sort_key = json.at("sort_key").get<std::vector<std::string>>();
        for (const std::string& key : schema.sort_key)
        {
            if (!schema.indexOf(key))
            {
                corrupted(path, "sort key names no column: " + key);
            }
        }
        return {json.at("name").get<std::string>(), std::move(schema)};
    }
    catch (const nlohmann::json::exception& error)
    {
        corrupted(path, error.what());
    }
    catch (const Exception& error)
    {
        // A codec or a storage format this version does not know.
        if (error.code() == ErrorCode::kCorruptedData)
        {
            throw;
        }
        corrupted(path, error.what());
    }
}

void writeManifest(const std::filesystem::path& directory, const std::vector<std::string>& parts,
                   uint64_t next_part_id)
{
    writeJsonDurably(directory / kManifestTemporaryFile,
                     {{"parts", parts}, {"next_part_id", next_part_id}});
    callStorageWriteHook(directory / kManifestFile);
    renameDurably(directory / kManifestTemporaryFile, directory / kManifestFile);
}

}  // namespace

size_t TableSnapshot::rows() const
{
    size_t total = 0;
    for (const std::shared_ptr<const Part>& part : parts)
    {
        total += part->rows();
    }
    return total;
}

Table::Table(std::string name, TableSchema schema)
    : Table(std::move(name), std::move(schema), std::nullopt)
{
}

Table::Table(std::string name, TableSchema schema, std::optional<std::filesystem::path> directory)
    : name_(std::move(name)),
      schema_(std::move(schema)),
      directory_(std::move(directory)),
      snapshot_(std::make_shared<const TableSnapshot>())
{
}

std::shared_ptr<Table> Table::create(std::string name, TableSchema schema,
                                     const std::filesystem::path& directory)
{
    std::filesystem::create_directory(directory);
    writeJsonDurably(directory / kSchemaFile, schemaJson(name, schema));
    writeJsonDurably(directory / kManifestFile,
                     {{"parts", nlohmann::json::array()}, {"next_part_id", 1}});
    syncDirectory(directory);
    return std::shared_ptr<Table>(new Table(std::move(name), std::move(schema), directory));
}

std::shared_ptr<Table> Table::open(const std::filesystem::path& directory)
{
    auto [name, schema] = parseSchema(directory / kSchemaFile);
    const std::filesystem::path manifest_path = directory / kManifestFile;
    const nlohmann::json manifest = readJson(manifest_path);
    std::vector<std::string> part_names;
    uint64_t next_part_id = 1;
    try
    {
        part_names = manifest.at("parts").get<std::vector<std::string>>();
        next_part_id = manifest.at("next_part_id").get<uint64_t>();
    }
    catch (const nlohmann::json::exception& error)
    {
        corrupted(manifest_path, error.what());
    }
    const std::set<std::string> published(part_names.begin(), part_names.end());
    for (const auto& entry : std::filesystem::directory_iterator(directory))
    {
        const std::string entry_name = entry.path().filename().string();
        const bool unpublished_part =
            entry_name.starts_with(kPartPrefix) && !published.contains(entry_name);
        if (entry_name.starts_with(kTemporaryPrefix) || unpublished_part)
        {
            std::filesystem::remove_all(entry.path());
        }
    }
    auto table = std::shared_ptr<Table>(new Table(std::move(name), std::move(schema), directory));
    auto snapshot = std::make_shared<TableSnapshot>();
    for (const std::string& part_name : part_names)
    {
        if (!part_name.starts_with(kPartPrefix) || part_name.find('/') != std::string::npos)
        {
            corrupted(manifest_path, "bad part name " + part_name);
        }
        snapshot->parts.push_back(openPartFiles(directory / part_name, table->schema_, false));
    }
    table->snapshot_ = std::move(snapshot);
    table->part_names_ = std::move(part_names);
    table->next_part_id_ = next_part_id;
    return table;
}

std::shared_ptr<const TableSnapshot> Table::snapshot() const
{
    std::lock_guard lock(snapshot_mutex_);
    return snapshot_;
}

void Table::insert(std::vector<Block> blocks, size_t threads)
{
    TableInsert insert(*this);
    insert.add(std::move(blocks), threads);
    insert.commit();
}

std::unique_lock<std::mutex> Table::tryLockForMerge()
{
    std::unique_lock lock(merge_mutex_, std::try_to_lock);
    if (lock.owns_lock() && retired_)
    {
        lock.unlock();
    }
    return lock;
}

void Table::retire()
{
    std::lock_guard lock(merge_mutex_);
    retired_ = true;
}

std::string Table::reservePartName()
{
    std::lock_guard lock(insert_mutex_);
    // Not written to the manifest here (inserts reserve names the same way): a merged part
    // the manifest never lists is deleted at the next open, so its name is free again.
    return std::string(kPartPrefix) + std::to_string(next_part_id_++);
}

bool Table::replaceParts(const std::vector<std::shared_ptr<const Part>>& sources,
                         std::shared_ptr<const Part> merged, const std::string& name)
{
    if (sources.empty())
    {
        return false;
    }
    std::vector<std::string> removed;
    {
        std::lock_guard lock(insert_mutex_);
        const std::shared_ptr<const TableSnapshot> current = snapshot();
        const auto first = std::find(current->parts.begin(), current->parts.end(), sources.front());
        const auto begin = static_cast<size_t>(first - current->parts.begin());
        if (first == current->parts.end() ||
            current->parts.size() - begin < sources.size() ||
            !std::equal(sources.begin(), sources.end(), first))
        {
            return false;
        }
        std::vector<std::string> names = part_names_;
        removed.assign(names.begin() + begin, names.begin() + begin + sources.size());
        names.erase(names.begin() + begin, names.begin() + begin + sources.size());
        names.insert(names.begin() + begin, name);
        if (directory_)
        {
            writeManifest(*directory_, names, next_part_id_);
        }
        auto replaced = std::make_shared<TableSnapshot>(*current);
        replaced->parts.erase(replaced->parts.begin() + begin,
                              replaced->parts.begin() + begin + sources.size());
        replaced->parts.insert(replaced->parts.begin() + begin, std::move(merged));
        part_names_ = std::move(names);
        std::lock_guard snapshot_lock(snapshot_mutex_);
        snapshot_ = std::move(replaced);
    }
    if (directory_)
    {
        // Unpublished now: a crash before this point leaves them to the next open, which
        // deletes folders the manifest does not list.
        for (const std::string& source : removed)
        {
            std::error_code ignored;
            std::filesystem::remove_all(*directory_ / source, ignored);
        }
    }
    return true;
}

void Table::publish(const std::vector<std::shared_ptr<const Part>>& parts,
                    const std::vector<std::string>& names)
{
    std::vector<std::string> all_names = part_names_;
    all_names.insert(all_names.end(), names.begin(), names.end());
    if (directory_)
    {
        writeManifest(*directory_, all_names, next_part_id_);
    }
    auto snapshot = std::make_shared<TableSnapshot>(*this->snapshot());
    snapshot->parts.insert(snapshot->parts.end(), parts.begin(), parts.end());
    part_names_ = std::move(all_names);
    std::lock_guard lock(snapshot_mutex_);
    snapshot_ = std::move(snapshot);
}

}  // namespace granary
