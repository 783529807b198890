#pragma once
// The Prometheus text exposition format 0.0.4, which cohortd's and cohort-hub's GET /metrics answer in
// (https://prometheus.io/docs/instrumenting/exposition_formats/). One family after another: its # HELP and # TYPE
// lines, then its samples. A family without samples is left out entirely, so a value nobody knows (a GPU reading
// NVML could not give) is absent from the scrape instead of a misleading 0.
#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>
#include <optional>

namespace cohort::prometheus {

// What GET /metrics answers with.
inline constexpr char kContentType[] = "text/plain; version=0.0.4; charset=utf-8";

enum class Type { Counter, Gauge };

struct Label {
    QByteArray name;
    QString value;
};
using Labels = QList<Label>;

// [a-zA-Z_:][a-zA-Z0-9_:]*
bool isValidMetricName(const QByteArray &name);
// [a-zA-Z_][a-zA-Z0-9_]*, and not "__…" (reserved for Prometheus itself).
bool isValidLabelName(const QByteArray &name);
// A label value between its double quotes: backslash, double quote and line feed escaped.
QByteArray escapeLabelValue(const QString &value);
// A # HELP text: backslash and line feed escaped.
QByteArray escapeHelp(const QString &help);
// NaN, +Inf, -Inf; a whole number below 2^53 in full ("1234567", not "1.234567e+06"); anything else as the shortest
// text that reads back as the same double.
QByteArray formatValue(double value);

class Writer {
public:
    // Begins a family; the samples that follow belong to it. Refused (and the family's samples dropped, so that one
    // mistake costs one family and not the scrape) for a name that is not a metric name, a name used before, or a
    // counter whose name does not end in "_total" (Prometheus's convention, which the 0.0.4 format leaves to us).
    // The names are the callers' constants: a refusal is a programming error, kept in problems().
    void family(const QByteArray &name, Type type, const QString &help);
    // A sample of the current family. Refused for a bad or repeated label name, a label set the family has already,
    // or with no family begun.
    void add(double value, const Labels &labels = {});
    // Omitted when unknown: nullopt is no sample, never 0.
    template <typename T>
    void add(const std::optional<T> &value, const Labels &labels = {})
    {
        if (value)
            add(double(*value), labels);
    }
    QByteArray text() const { return m_text; }
    // What was refused, one sentence each; empty when the text holds everything asked for.
    const QStringList &problems() const { return m_problems; }

private:
    void refuse(const QString &problem);

    QByteArray m_text;
    QByteArray m_name;   // of the current family; empty: none (or it was refused)
    QByteArray m_header; // its # HELP and # TYPE lines, written with its first sample
    QSet<QByteArray> m_families;
    QSet<QByteArray> m_labelSets; // of the current family
    QStringList m_problems;
};

} // namespace cohort::prometheus
