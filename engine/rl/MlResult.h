#pragma once
// Errors as values for the Qt-free machine-learning core: the same Result<T> the safetensors reader uses
// (exactly one of value / error is set). LibTorch's c10::Error is caught inside the core and becomes an error string.
#include "store/safetensors/Safetensors.h"

namespace cohort::rl {

template <class T>
using Result = cohort::safetensors::Result<T>;

// For operations that return nothing but can fail: empty string = success.
struct [[nodiscard]] Outcome {
    std::string error;
    bool ok() const { return error.empty(); }
    explicit operator bool() const { return ok(); }
    static Outcome success() { return {}; }
    static Outcome failure(std::string message) { return {message.empty() ? std::string("unknown error") : std::move(message)}; }
};

} // namespace cohort::rl
