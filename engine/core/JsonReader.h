#pragma once
// Strict, typed reading of JSON from the network or disk. The first problem found is kept as a
// clear error ("field 'state': expected a string"), later reads return defaults, so callers check ok() once.
#include "core/Expected.h"

#include <QJsonArray>
#include <QJsonObject>

namespace cohort {

// Parses bytes as one JSON object, refusing anything larger than maxBytes.
Expected<QJsonObject> parseJsonObject(const QByteArray &bytes, qsizetype maxBytes = 1 << 20);

class JsonReader {
public:
    explicit JsonReader(QJsonObject object, QString context = {});

    QString string(const QString &key, int maxLength = 256);
    QString optionalString(const QString &key, const QString &fallback = {}, int maxLength = 256);
    qint64 integer(const QString &key, qint64 min, qint64 max);
    qint64 optionalInteger(const QString &key, qint64 fallback, qint64 min, qint64 max);
    double number(const QString &key, double min, double max);
    double optionalNumber(const QString &key, double fallback, double min, double max);
    bool optionalBool(const QString &key, bool fallback);
    QJsonObject optionalObject(const QString &key);
    QJsonArray optionalArray(const QString &key, int maxItems);

    bool ok() const { return m_error.isEmpty(); }
    const QString &error() const { return m_error; }
    void setError(const QString &message);

private:
    bool check(const QString &key, bool present, bool rightType, const char *expected);
    QJsonObject m_object;
    QString m_context;
    QString m_error;
};

} // namespace cohort
