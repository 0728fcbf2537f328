# Every dependency comes from a Debian package; a missing one stops configuration and names it.
include(FindPkgConfig OPTIONAL)

function(granary_missing_package what debian_package)
    message(FATAL_ERROR "Granary needs ${what}: install the Debian package '${debian_package}' "
                        "(apt-get install ${debian_package}), or run ./test, which installs it.")
endfunction()

find_package(PkgConfig QUIET)
if(NOT PkgConfig_FOUND)
    granary_missing_package("pkg-config" "pkg-config")
endif()

pkg_check_modules(JEMALLOC QUIET IMPORTED_TARGET jemalloc)
if(NOT JEMALLOC_FOUND)
    granary_missing_package("jemalloc" "libjemalloc-dev")
endif()

find_package(absl CONFIG QUIET)
if(NOT absl_FOUND)
    granary_missing_package("Abseil" "libabsl-dev")
endif()

find_package(TBB CONFIG QUIET)
if(NOT TBB_FOUND)
    granary_missing_package("oneTBB" "libtbb-dev")
endif()

find_package(Threads REQUIRED)

if(GRANARY_BUILD_TESTS)
    find_package(GTest CONFIG QUIET)
    if(NOT GTest_FOUND)
        granary_missing_package("GoogleTest" "libgtest-dev")
    endif()
endif()

if(GRANARY_BUILD_BENCHMARKS)
    find_package(benchmark CONFIG QUIET)
    if(NOT benchmark_FOUND)
        granary_missing_package("Google Benchmark" "libbenchmark-dev")
    endif()
endif()

find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
    granary_missing_package("CLI11" "libcli11-dev")
endif()

find_package(fmt CONFIG QUIET)
if(NOT fmt_FOUND)
    granary_missing_package("fmt" "libfmt-dev")
endif()

find_package(nlohmann_json CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
    granary_missing_package("nlohmann-json" "nlohmann-json3-dev")
endif()

pkg_check_modules(RE2 QUIET IMPORTED_TARGET re2)
if(NOT RE2_FOUND)
    granary_missing_package("RE2" "libre2-dev")
endif()

pkg_check_modules(LZ4 QUIET IMPORTED_TARGET liblz4)
if(NOT LZ4_FOUND)
    granary_missing_package("liblz4" "liblz4-dev")
endif()

pkg_check_modules(ZSTD QUIET IMPORTED_TARGET libzstd)
if(NOT ZSTD_FOUND)
    granary_missing_package("libzstd" "libzstd-dev")
endif()

# JSONEachRow input (simdjson's On-Demand parser).
pkg_check_modules(SIMDJSON QUIET IMPORTED_TARGET simdjson)
if(NOT SIMDJSON_FOUND)
    granary_missing_package("simdjson" "libsimdjson-dev")
endif()

# The HTTP interface's server (Debian builds it as a library with zlib and brotli, which
# decode gzip, deflate and br request bodies).
pkg_check_modules(HTTPLIB QUIET IMPORTED_TARGET cpp-httplib)
if(NOT HTTPLIB_FOUND)
    granary_missing_package("cpp-httplib" "libcpp-httplib-dev")
endif()

pkg_check_modules(HWLOC QUIET IMPORTED_TARGET hwloc)
if(NOT HWLOC_FOUND)
    granary_missing_package("hwloc" "libhwloc-dev")
endif()

pkg_check_modules(LIBEDIT QUIET IMPORTED_TARGET libedit)
if(NOT LIBEDIT_FOUND)
    granary_missing_package("libedit" "libedit-dev")
endif()
