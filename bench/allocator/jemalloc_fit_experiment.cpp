// The seed's jemalloc finding, repeatable: a two-level-hash-table-heavy aggregation (like
// ClickBench Q35, GROUP BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3) run for many
// rounds in one process, with tables of different sizes each round, so that the extents freed by
// one round's 256 sub-tables must be reused by the next round's differently sized requests.
//
// Run without arguments, the program runs itself twice, with MALLOC_CONF set to
// lg_extent_max_active_fit:6 (jemalloc's default) and :8 (Granary's), and prints both
// side by side. jemalloc applies MALLOC_CONF after the compiled-in malloc_conf symbol.
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "alloc/allocator_stats.h"
#include "engine/observe/resource_snapshot.h"
#include "hashtables/hash_map.h"

namespace granary
{
namespace
{

/// Rounds in one process: enough for freed extents to be reused many times.
constexpr size_t kDefaultRounds = 20;
/// Threads, each building its own two-level table, as aggregation threads do.
constexpr size_t kDefaultThreads = 4;
/// Groups of the largest table of a thread; each round draws a fraction of it.
constexpr size_t kDefaultMaxGroupsPerThread = 2'000'000;
/// A round's table gets between this fraction of the largest size and the largest size.
constexpr double kSmallestTableFraction = 0.1;
/// Rows per group: each key is found again after it is inserted, as in a real GROUP BY.
constexpr size_t kRowsPerGroup = 2;
/// The two settings compared: jemalloc's default (64x) and Granary's (256x).
constexpr size_t kDefaultFit = 6;
constexpr size_t kGranaryFit = 8;
constexpr const char* kChildFlag = "--child";
constexpr double kBytesPerMebibyte = 1024.0 * 1024.0;

using GroupTable = TwoLevelHashMap<PackedKey16, uint64_t>;

struct Options
{
    size_t rounds = kDefaultRounds;
    size_t threads = kDefaultThreads;
    size_t max_groups_per_thread = kDefaultMaxGroupsPerThread;
    bool child = false;
};

Options parseOptions(int argc, char** argv)
{
    Options options;
    for (int i = 1; i < argc; ++i)
    {
        const std::string argument = argv[i];
        const auto value = [&]
        {
            if (i + 1 == argc)
            {
                throw std::invalid_argument(argument + " needs a value");
            }
            return static_cast<size_t>(std::stoull(argv[++i]));
        };
        if (argument == "--rounds")
        {
            options.rounds = value();
        }
        else if (argument == "--threads")
        {
            options.threads = value();
        }
        else if (argument == "--max-groups")
        {
            options.max_groups_per_thread = value();
        }
        else if (argument == kChildFlag)
        {
            options.child = true;
        }
        else
        {
            throw std::invalid_argument(
                "usage: jemalloc_fit_experiment [--rounds N] "
                "[--threads N] [--max-groups N]");
        }
    }
    return options;
}

/// The key of a group: ClientIP and ClientIP - 1, - 2, - 3, four 32-bit values in 16 bytes.
PackedKey16 groupKey(uint32_t client_ip)
{
    PackedKey16 key;
    key.words[0] = client_ip | (uint64_t{client_ip - 1} << 32);
    key.words[1] = uint64_t{client_ip - 2} | (uint64_t{client_ip - 3} << 32);
    return key;
}

std::unique_ptr<GroupTable> aggregate(size_t groups, uint64_t seed)
{
    auto table = std::make_unique<GroupTable>();
    std::mt19937_64 random(seed);
    std::vector<uint32_t> client_ips(groups);
    for (uint32_t& ip : client_ips)
    {
        ip = static_cast<uint32_t>(random());
    }
    for (size_t row = 0; row < groups * kRowsPerGroup; ++row)
    {
        bool inserted;
        ++table->emplace(groupKey(client_ips[row % groups]), inserted)->mapped();
    }
    return table;
}

/// VmHWM, the peak resident set of the process, from /proc/self/status (reported in kB).
uint64_t peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return std::stoull(line.substr(6)) * 1024;
        }
    }
    return 0;
}

/// One configuration's run: prints "name=value" pairs on one line for the parent.
int runChild(const Options& options)
{
    // Each round's sizes, the same sequence for both configurations.
    std::mt19937_64 sizes(2025);
    std::uniform_real_distribution<double> fraction(kSmallestTableFraction, 1.0);
    std::vector<std::vector<size_t>> groups(options.rounds, std::vector<size_t>(options.threads));
    for (auto& round : groups)
    {
        for (size_t& thread_groups : round)
        {
            thread_groups = static_cast<size_t>(options.max_groups_per_thread * fraction(sizes));
        }
    }

    // Long-lived workers, like an engine's pool: a thread keeps its jemalloc arena across
    // rounds, so what it frees it can reuse.
    std::vector<std::unique_ptr<GroupTable>> tables(options.threads);
    std::barrier sync(static_cast<std::ptrdiff_t>(options.threads + 1));
    std::vector<std::jthread> workers;
    for (size_t t = 0; t < options.threads; ++t)
    {
        workers.emplace_back(
            [&, t]
            {
                for (size_t round = 0; round < options.rounds; ++round)
                {
                    tables[t] = aggregate(groups[round][t], round * options.threads + t);
                    sync.arrive_and_wait();  // built
                    sync.arrive_and_wait();  // measured
                    tables[t].reset();
                    sync.arrive_and_wait();  // freed
                }
            });
    }

    const ResourceSnapshot start = ResourceSnapshot::take();
    const auto start_time = std::chrono::steady_clock::now();
    uint64_t peak_allocator_resident = 0;
    for (size_t round = 0; round < options.rounds; ++round)
    {
        sync.arrive_and_wait();
        peak_allocator_resident =
            std::max(peak_allocator_resident, ResourceSnapshot::take().resident_bytes);
        sync.arrive_and_wait();
        sync.arrive_and_wait();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
    const ResourceUsage usage = ResourceSnapshot::take() - start;

    std::cout << "fit=" << readJemallocSizeOption("opt.lg_extent_max_active_fit").value_or(0)
              << " seconds=" << seconds << " peak_rss_bytes=" << peakResidentBytes()
              << " peak_allocator_resident_bytes=" << peak_allocator_resident
              << " minor_page_faults=" << usage.minor_page_faults
              << " major_page_faults=" << usage.major_page_faults << std::endl;
    return 0;
}

using Figures = std::map<std::string, double>;

/// Runs this program as a child with MALLOC_CONF selecting `fit` and returns its figures.
Figures runConfiguration(size_t fit, const Options& options)
{
    const std::string command = "MALLOC_CONF=lg_extent_max_active_fit:" + std::to_string(fit) +
                                " '" + std::filesystem::read_symlink("/proc/self/exe").string() +
                                "' " + kChildFlag + " --rounds " + std::to_string(options.rounds) +
                                " --threads " + std::to_string(options.threads) + " --max-groups " +
                                std::to_string(options.max_groups_per_thread);
    std::unique_ptr<FILE, int (*)(FILE*)> child(popen(command.c_str(), "r"), &pclose);
    if (!child)
    {
        throw std::runtime_error("cannot run " + command);
    }
    std::string output;
    char buffer[256];
    while (std::fgets(buffer, sizeof(buffer), child.get()) != nullptr)
    {
        output += buffer;
    }
    Figures figures;
    std::istringstream fields(output);
    std::string field;
    while (fields >> field)
    {
        const size_t equals = field.find('=');
        if (equals != std::string::npos)
        {
            figures[field.substr(0, equals)] = std::stod(field.substr(equals + 1));
        }
    }
    if (figures["fit"] != static_cast<double>(fit))
    {
        throw std::runtime_error("the child did not run with lg_extent_max_active_fit:" +
                                 std::to_string(fit) + ": " + output);
    }
    return figures;
}

void printRow(const char* name, double fit6, double fit8, double scale)
{
    std::printf("%-38s %14.1f %14.1f %10.3f\n", name, fit6 / scale, fit8 / scale,
                fit6 != 0 ? fit8 / fit6 : 0.0);
}

int runComparison(const Options& options)
{
    if (!jemallocActive())
    {
        std::cerr << "jemalloc is not the allocator of this build (sanitizer build?)\n";
        return 1;
    }
    std::printf("jemalloc %s; %zu rounds, %zu threads, up to %zu groups per thread\n",
                readJemallocStringOption("version").value_or("?").c_str(), options.rounds,
                options.threads, options.max_groups_per_thread);
    const Figures fit6 = runConfiguration(kDefaultFit, options);
    const Figures fit8 = runConfiguration(kGranaryFit, options);
    std::printf("%-38s %14s %14s %10s\n", "metric", "fit 6", "fit 8", "8 / 6");
    printRow("peak RSS, VmHWM (MiB)", fit6.at("peak_rss_bytes"), fit8.at("peak_rss_bytes"),
             kBytesPerMebibyte);
    printRow("peak jemalloc stats.resident (MiB)", fit6.at("peak_allocator_resident_bytes"),
             fit8.at("peak_allocator_resident_bytes"), kBytesPerMebibyte);
    printRow("minor page faults", fit6.at("minor_page_faults"), fit8.at("minor_page_faults"), 1);
    printRow("major page faults", fit6.at("major_page_faults"), fit8.at("major_page_faults"), 1);
    printRow("wall time (s)", fit6.at("seconds"), fit8.at("seconds"), 1);
    return 0;
}

}  // namespace
}  // namespace granary

int main(int argc, char** argv)
{
    try
    {
        const granary::Options options = granary::parseOptions(argc, argv);
        return options.child ? granary::runChild(options) : granary::runComparison(options);
    }
    catch (const std::exception& error)
    {
        std::cerr << "jemalloc_fit_experiment: " << error.what() << '\n';
        return 1;
    }
}
