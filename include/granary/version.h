#pragma once

// The library's version, and the version of the partial-state format it writes.

#define GRANARY_VERSION_MAJOR 0
#define GRANARY_VERSION_MINOR 3
#define GRANARY_VERSION_PATCH 0
#define GRANARY_VERSION_STRING "0.3.0"
/// Whole-number version: major * 10000 + minor * 100 + patch.
#define GRANARY_VERSION \
    (GRANARY_VERSION_MAJOR * 10000 + GRANARY_VERSION_MINOR * 100 + GRANARY_VERSION_PATCH)
/// The partial-state format this build writes and reads (docs/embedding.md).
#define GRANARY_PARTIAL_STATE_VERSION 2
