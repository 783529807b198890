#pragma once
// Errors inside the engine are values: base/Result.h is the one shape, standard library only. This is its adaptor at
// the Qt boundary: Expected<T> holds a value or a human-readable error as a QString, Status the same for work that
// returns nothing, and fail(result) passes on the error of a Qt-free Result or Outcome. Each carries the failure's
// ErrorCode (base/Result.h) beside its message: fail(message, code) for the few failures a caller decides by.
#include "base/Result.h"

#include <QString>
#include <optional>
#include <utility>

namespace cohort {

struct Unexpected {
    QString message;
    ErrorCode code = ErrorCode::Failed;
};

inline Unexpected fail(QString message, ErrorCode code = ErrorCode::Failed)
{
    return Unexpected{std::move(message), code == ErrorCode::None ? ErrorCode::Failed : code};
}
template <class T>
Unexpected fail(const Result<T> &failed)
{
    return fail(QString::fromStdString(failed.error), failed.code);
}
inline Unexpected fail(const Outcome &failed)
{
    return fail(QString::fromStdString(failed.error), failed.code);
}

template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value)
        : m_value(std::move(value))
    {}
    Expected(Unexpected error)
        : m_error(std::move(error.message)),
          m_code(error.code)
    {}

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }
    const T &operator*() const { return *m_value; }
    const QString &error() const { return m_error; }
    ErrorCode code() const { return m_code; } // None when ok

private:
    std::optional<T> m_value;
    QString m_error;
    ErrorCode m_code = ErrorCode::None;
};

// For operations that return nothing but can fail.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Unexpected error)
        : m_error(std::move(error.message)),
          m_code(error.code)
    {}
    static Status success() { return {}; }
    bool ok() const { return m_code == ErrorCode::None; }
    explicit operator bool() const { return ok(); }
    const QString &error() const { return m_error; }
    ErrorCode code() const { return m_code; } // None when ok
    bool retryable() const { return cohort::retryable(m_code); }

private:
    QString m_error;
    ErrorCode m_code = ErrorCode::None;
};

} // namespace cohort
