#pragma once
// Internal helpers shared by the reader and the writer.
#include "store/safetensors/Safetensors.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cohort::safetensors::detail {

// product(shape) * dtypeSize(dtype), or nullopt for a negative dimension or a 64-bit overflow.
std::optional<uint64_t> byteSizeOf(DType dtype, const std::vector<int64_t> &shape);
// A name for error messages: JSON-quoted (control characters escaped) and cut to a readable length.
std::string quoteName(std::string_view name);

} // namespace cohort::safetensors::detail
