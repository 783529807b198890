#pragma once
// Errors inside the engine are values. Expected<T> holds either a value or a human-readable error.
#include <QString>
#include <optional>
#include <utility>

namespace cohort {

struct Unexpected {
    QString message;
};

inline Unexpected fail(QString message) { return Unexpected{std::move(message)}; }

template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : m_value(std::move(value)) {}
    Expected(Unexpected error) : m_error(std::move(error.message)) {}

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
    Status(Unexpected error) : m_error(std::move(error.message)), m_failed(true) {}
    static Status success() { return {}; }
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const QString &error() const { return m_error; }

private:
    QString m_error;
    bool m_failed = false;
};

} // namespace cohort
