#pragma once
// Errors as values, the one shape the whole engine uses: Result<T> holds a value or what went wrong, Outcome the same
// for work that returns nothing. Standard library only (no Qt, no LibTorch), so the Qt-free core (safetensors,
// TOPLOC, the RL model, the CUDA kernels' callers) and the bare GPU-box builds share it; core/Expected.h is its thin
// adaptor at the Qt boundary (the message as a QString, fail(result) to pass an error on). Nothing here throws.
#include <optional>
#include <string>
#include <utility>

namespace cohort {

// Exactly one of `value` and `error` is set; a failure's error is never empty.
template <class T>
struct [[nodiscard]] Result {
    std::optional<T> value;
    std::string error;

    static Result success(T v) { return Result{std::move(v), {}}; }
    static Result failure(std::string message)
    {
        return Result{std::nullopt, message.empty() ? std::string("unknown error") : std::move(message)};
    }
    bool ok() const { return value.has_value(); }
    explicit operator bool() const { return ok(); }
    T &operator*() { return *value; }
    const T &operator*() const { return *value; }
    T *operator->() { return &*value; }
    const T *operator->() const { return &*value; }
};

// For work that returns nothing but can fail: an empty error is success.
struct [[nodiscard]] Outcome {
    std::string error;

    static Outcome success() { return {}; }
    static Outcome failure(std::string message)
    {
        return {message.empty() ? std::string("unknown error") : std::move(message)};
    }
    bool ok() const { return error.empty(); }
    explicit operator bool() const { return ok(); }
};

} // namespace cohort
