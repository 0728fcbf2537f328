// Ingest load driver: N keep-alive connections POST pre-encoded bodies to an HTTP insert
// endpoint (Granary's or ClickHouse's) for a fixed time after a warm-up, and report rows per
// second and rows per server CPU-second (utime + stime of the server process from
// /proc/PID/stat over the measured window), with request latency percentiles. The window runs
// from its start until every request started inside it has finished; the server's CPU time
// includes warm-up requests still in flight at the start (a small overcount that only
// lowers the reported rate).
#include <fmt/format.h>
#include <httplib.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

namespace
{

using Clock = std::chrono::steady_clock;

struct Options
{
    std::string host = "127.0.0.1";
    int port = 8123;
    std::string path;  ///< URL path and query string, already encoded.
    std::string body_file;
    uint64_t rows_per_body = 0;
    size_t connections = 1;
    double warmup_seconds = 2;
    double seconds = 10;
    int server_pid = 0;
    std::string label;
    std::string content_encoding;
};

/// utime + stime of a process, in seconds.
double processCpuSeconds(int pid)
{
    std::ifstream stat(fmt::format("/proc/{}/stat", pid));
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    // Fields after the command name (which may hold spaces) start past the last ')'.
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string field;
    unsigned long long utime = 0;
    unsigned long long stime = 0;
    for (int index = 3; fields >> field; ++index)
    {
        if (index == 14)
        {
            utime = std::stoull(field);
        }
        else if (index == 15)
        {
            stime = std::stoull(field);
            break;
        }
    }
    return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

double percentile(std::vector<double>& values, double fraction)
{
    if (values.empty())
    {
        return 0;
    }
    const size_t index = std::min(values.size() - 1, static_cast<size_t>(fraction * values.size()));
    std::nth_element(values.begin(), values.begin() + index, values.end());
    return values[index];
}

int run(const Options& options)
{
    std::ifstream file(options.body_file, std::ios::binary);
    const std::string body((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    if (body.empty())
    {
        std::cerr << "ingest_driver: empty or missing body " << options.body_file << "\n";
        return 1;
    }
    std::atomic<bool> measuring{false};
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> requests{0};
    std::atomic<uint64_t> failures{0};
    std::mutex latencies_mutex;
    std::vector<double> latencies_ms;
    std::string first_error;
    std::vector<std::thread> workers;
    for (size_t i = 0; i < options.connections; ++i)
    {
        workers.emplace_back(
            [&]
            {
                httplib::Client client(options.host, options.port);
                client.set_keep_alive(true);
                client.set_read_timeout(300, 0);
                client.set_write_timeout(300, 0);
                httplib::Headers headers;
                if (!options.content_encoding.empty())
                {
                    headers.emplace("Content-Encoding", options.content_encoding);
                }
                std::vector<double> mine;
                while (!stop)
                {
                    // Counted when it starts inside the window; the window closes once the
                    // requests started in it have finished, so long requests are not lost.
                    const bool counted = measuring.load();
                    const auto start = Clock::now();
                    const httplib::Result result =
                        client.Post(options.path, headers, body, "application/octet-stream");
                    const double ms =
                        std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                    if (!result || result->status != 200)
                    {
                        ++failures;
                        std::lock_guard lock(latencies_mutex);
                        if (first_error.empty())
                        {
                            first_error =
                                result ? result->body : httplib::to_string(result.error());
                        }
                        continue;
                    }
                    if (counted)
                    {
                        ++requests;
                        mine.push_back(ms);
                    }
                }
                std::lock_guard lock(latencies_mutex);
                latencies_ms.insert(latencies_ms.end(), mine.begin(), mine.end());
            });
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(options.warmup_seconds));
    const double cpu_start = options.server_pid ? processCpuSeconds(options.server_pid) : 0;
    const auto start = Clock::now();
    measuring = true;
    std::this_thread::sleep_for(std::chrono::duration<double>(options.seconds));
    measuring = false;
    stop = true;
    for (std::thread& worker : workers)
    {
        worker.join();
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    const double cpu = options.server_pid ? processCpuSeconds(options.server_pid) - cpu_start : 0;
    const double rows = static_cast<double>(requests.load() * options.rows_per_body);
    // One CSV line: what run.sh collects.
    std::cout << fmt::format(
        "{},{},{},{:.0f},{:.3f},{:.0f},{:.3f},{:.0f},{:.2f},{:.2f},{:.1f},{}\n", options.label,
        options.connections, requests.load(), rows, wall, rows / wall, cpu,
        cpu > 0 ? rows / cpu : 0, percentile(latencies_ms, 0.5), percentile(latencies_ms, 0.99),
        body.size() * requests.load() / wall / 1e6, failures.load());
    if (failures > 0)
    {
        std::cerr << "ingest_driver: " << failures << " failed requests; first: " << first_error
                  << "\n";
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    Options options;
    CLI::App app{"POST pre-encoded insert bodies over N keep-alive connections"};
    app.add_option("--host", options.host);
    app.add_option("--port", options.port)->required();
    app.add_option("--path", options.path, "URL path and encoded query string")->required();
    app.add_option("--body", options.body_file, "File holding one request body")->required();
    app.add_option("--rows-per-body", options.rows_per_body)->required();
    app.add_option("--connections", options.connections);
    app.add_option("--warmup", options.warmup_seconds);
    app.add_option("--seconds", options.seconds);
    app.add_option("--server-pid", options.server_pid, "Process whose CPU time is measured");
    app.add_option("--label", options.label);
    app.add_option("--content-encoding", options.content_encoding);
    CLI11_PARSE(app, argc, argv);
    return run(options);
}
