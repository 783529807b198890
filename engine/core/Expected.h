#pragma once
// Errors inside the engine are values: base/Result.h is the one shape, standard library only. This is its adaptor at
// the Qt boundary: Expected<T> holds a value or a human-readable error as a QString, Status the same for work that
// returns nothing, and fail(result) passes on the error of a Qt-free Result or Outcome.
#include "base/Result.h"

#include <QString>
#include <optional>
#include <utility>

namespace cohort {

struct Unexpected {
    QString message;
};

inline Unexpected fail(QString message)
{
    return Unexpected{std::move(message)};
}
template <class T>
Unexpected fail(const Result<T> &failed)
{
    return Unexpected{QString::fromStdString(failed.error)};
}
inline Unexpected fail(const Outcome &failed)
{
    return Unexpected{QString::fromStdString(failed.error)};
}

template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value)
        : m_value(std::move(value))
    {}
    Expected(Unexpected error)
        : m_error(std::move(error.message))
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

private:
    std::optional<T> m_value;
    QString m_error;
};

// For operations that return nothing but can fail.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Unexpected error)
        : m_error(std::move(error.message)),
          m_failed(true)
    {}
    static Status success() { return {}; }
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const QString &error() const { return m_error; }

private:
    QString m_error;
    bool m_failed = false;
};

} // namespace cohort
