#pragma once
// Errors as values, the one shape the whole engine uses: Result<T> holds a value or what went wrong, Outcome the same
// for work that returns nothing. Standard library only (no Qt, no LibTorch), so the Qt-free core (safetensors,
// TOPLOC, the RL model, the CUDA kernels' callers) and the bare GPU-box builds share it; core/Expected.h is its thin
// adaptor at the Qt boundary (the message as a QString, fail(result) to pass an error on). Nothing here throws.
// A failure carries a code besides its message: most callers only pass the message on, the few that decide (retry a
// collective, reconnect, fall back to the CPU) read the code, never the text.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace cohort {

// What kind of failure. Codes are for decisions, not for people: the message says what happened.
enum class ErrorCode : std::uint8_t {
    None,            // success
    Failed,          // a failure of no kind a caller decides by (most: the message is all there is to pass on)
    InvalidArgument, // the input is wrong: non-finite values where they cannot be, a bad dtype
    Aborted,         // cut short (a peer left, a link broke): retry
    Timeout,         // a wait ran out (peers too slow, no progress): retry or give up
    Disconnected,    // the connection (to the collective's master) is gone: reconnect
    Refused,         // the other side said no
    NotConnected,    // used before it was connected
    NonFinite,       // NaN or +-inf where only finite values can go (quantization)
    RangeTooLarge,   // max - min overflows float (quantization)
    SizeMismatch,    // source and destination differ in length (quantization): the caller's bug
    BadParams,       // a quantization header (min, scale) no code can decode with: a peer's header is refused
    NoDevice,        // no GPU driver, or no device
    DeviceError,     // a GPU runtime call failed; the message names it
};

// Stable names for logs and tests ("aborted", "timeout", ...).
constexpr const char *errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::None: return "ok";
    case ErrorCode::Failed: return "failed";
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::Aborted: return "aborted";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::Disconnected: return "disconnected";
    case ErrorCode::Refused: return "refused";
    case ErrorCode::NotConnected: return "not connected";
    case ErrorCode::NonFinite: return "non-finite";
    case ErrorCode::RangeTooLarge: return "range too large";
    case ErrorCode::SizeMismatch: return "size mismatch";
    case ErrorCode::BadParams: return "bad quantization header";
    case ErrorCode::NoDevice: return "no device";
    case ErrorCode::DeviceError: return "device error";
    }
    return "unknown";
}

// Worth trying again as it is: the failure came from the moment, not from the input or the setup.
constexpr bool retryable(ErrorCode code)
{
    return code == ErrorCode::Aborted || code == ErrorCode::Timeout;
}

// Exactly one of `value` and `error` is set; a failure's error is never empty.
template <class T>
struct [[nodiscard]] Result {
    std::optional<T> value;
    std::string error;
    ErrorCode code = ErrorCode::None;

    static Result success(T v) { return Result{std::move(v), {}}; }
    static Result failure(std::string message, ErrorCode code = ErrorCode::Failed)
    {
        return Result{std::nullopt, message.empty() ? std::string("unknown error") : std::move(message), code};
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
    ErrorCode code = ErrorCode::None;

    static Outcome success() { return {}; }
    static Outcome failure(std::string message, ErrorCode code = ErrorCode::Failed)
    {
        return {message.empty() ? std::string("unknown error") : std::move(message), code};
    }
    bool ok() const { return error.empty(); }
    explicit operator bool() const { return ok(); }
};

} // namespace cohort
