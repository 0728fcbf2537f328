#include "engine/storage/database.h"

#include <cctype>
#include <cstdio>

#include "engine/common/exception.h"
#include "engine/storage/storage_files.h"
#include "engine/storage/table_insert.h"

namespace granary
{
namespace
{

constexpr std::string_view kTemporaryPrefix = "tmp.";

/// A folder name for a table: portable bytes kept, others as %XX, so that no name escapes
/// the database folder or looks like a temporary entry (which contain '.').
std::string folderName(std::string_view table)
{
    std::string folder;
    for (const char byte : table)
    {
        const unsigned char value = static_cast<unsigned char>(byte);
        if (std::isalnum(value) || byte == '_' || byte == '-')
        {
            folder += byte;
        }
        else
        {
            char escaped[4];
            std::snprintf(escaped, sizeof(escaped), "%%%02X", value);
            folder += escaped;
        }
    }
    return folder;
}

[[noreturn]] void unknownTable(std::string_view name)
{
    throw Exception(ErrorCode::kUnknownTable, "table '" + std::string(name) + "' does not exist");
}

}  // namespace

Database::Database(std::optional<std::filesystem::path> directory)
    : directory_(std::move(directory))
{
}

std::shared_ptr<Database> Database::open(const std::filesystem::path& dir)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error || !std::filesystem::is_directory(dir))
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        "cannot open database folder '" + dir.string() + "'");
    }
    auto database = std::shared_ptr<Database>(new Database(dir));
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        if (entry.path().filename().string().starts_with(kTemporaryPrefix))
        {
            std::filesystem::remove_all(entry.path());
        }
        else if (entry.is_directory())
        {
            std::shared_ptr<Table> table = Table::open(entry.path());
            database->tables_[table->name()] = std::move(table);
        }
    }
    return database;
}

std::shared_ptr<Database> Database::openInMemory()
{
    return std::shared_ptr<Database>(new Database(std::nullopt));
}

void Database::createTable(const std::string& name, TableSchema schema, ExistingTable existing)
{
    schema.validate(name);
    std::lock_guard lock(mutex_);
    const bool exists = tables_.contains(name);
    if (exists && existing == ExistingTable::kKeep)
    {
        return;
    }
    if (exists && existing == ExistingTable::kFail)
    {
        throw Exception(ErrorCode::kTableAlreadyExists, "table '" + name + "' already exists");
    }
    if (exists)
    {
        tables_.at(name)->retire();
    }
    if (!directory_)
    {
        tables_[name] = std::make_shared<Table>(name, std::move(schema));
        return;
    }
    const std::string folder = folderName(name);
    const std::filesystem::path staging = *directory_ / ("tmp.create." + folder);
    std::filesystem::remove_all(staging);
    Table::create(name, std::move(schema), staging);
    const std::filesystem::path destination = *directory_ / folder;
    if (exists)
    {
        // Replacing is two renames: a crash between them loses the old table, never mixes.
        renameDurably(destination, *directory_ / ("tmp.drop." + folder));
    }
    renameDurably(staging, destination);
    std::filesystem::remove_all(*directory_ / ("tmp.drop." + folder));
    tables_[name] = Table::open(destination);
}

void Database::dropTable(std::string_view name, bool if_exists)
{
    std::lock_guard lock(mutex_);
    const auto found = tables_.find(name);
    if (found == tables_.end())
    {
        if (if_exists)
        {
            return;
        }
        unknownTable(name);
    }
    found->second->retire();
    if (directory_)
    {
        const std::string folder = folderName(name);
        const std::filesystem::path dropped = *directory_ / ("tmp.drop." + folder);
        renameDurably(*directory_ / folder, dropped);
        std::filesystem::remove_all(dropped);
    }
    tables_.erase(found);
}

std::shared_ptr<Table> Database::table(std::string_view name) const
{
    std::lock_guard lock(mutex_);
    const auto found = tables_.find(name);
    if (found == tables_.end())
    {
        unknownTable(name);
    }
    return found->second;
}

std::vector<std::string> Database::tableNames() const
{
    std::lock_guard lock(mutex_);
    std::vector<std::string> names;
    for (const auto& [name, table] : tables_)
    {
        names.push_back(name);
    }
    return names;
}

void Database::insert(std::string_view table, std::vector<Block> blocks, size_t threads)
{
    this->table(table)->insert(std::move(blocks), threads);
    if (merges_)
    {
        merges_->wake();
    }
}

void Database::insertOnePart(std::string_view table, std::vector<Block> blocks)
{
    TableInsert insert(*this->table(table));
    insert.addPart(std::move(blocks));
    insert.commit();
    if (merges_)
    {
        merges_->wake();
    }
}

void Database::startBackgroundMerges(MergePolicy policy)
{
    if (merges_)
    {
        return;
    }
    merges_ = std::make_unique<BackgroundMerges>(
        [this]
        {
            std::lock_guard lock(mutex_);
            std::vector<std::shared_ptr<Table>> tables;
            for (const auto& [name, table] : tables_)
            {
                tables.push_back(table);
            }
            return tables;
        },
        policy);
}

AsyncInsertQueue& Database::asyncInserts()
{
    std::lock_guard lock(async_inserts_mutex_);
    if (!async_inserts_)
    {
        async_inserts_ = std::make_unique<AsyncInsertQueue>(*this);
    }
    return *async_inserts_;
}

uint64_t Database::backgroundMerges() const
{
    return merges_ ? merges_->merges() : 0;
}

}  // namespace granary
