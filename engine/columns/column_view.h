#pragma once

// ColumnView is public (granary/column_view.h): hosts build views of their own memory.
#include "engine/columns/types.h"
#include "granary/column_view.h"
