#pragma once

// The library's error type is public (granary/error.h): hosts catch what the engine throws.
#include "granary/error.h"
