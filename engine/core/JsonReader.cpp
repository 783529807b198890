#include "core/JsonReader.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <cmath>

namespace cohort {

Expected<QJsonObject> parseJsonObject(const QByteArray &bytes, qsizetype maxBytes)
{
    if (bytes.size() > maxBytes)
        return fail(
            QStringLiteral("JSON body of %1 bytes exceeds the limit of %2 bytes").arg(bytes.size()).arg(maxBytes));
    if (bytes.trimmed().isEmpty())
        return fail(QStringLiteral("empty body where a JSON object was expected"));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(
            QStringLiteral("malformed JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    if (!doc.isObject())
        return fail(QStringLiteral("expected a JSON object at the top level"));
    return doc.object();
}

JsonReader::JsonReader(QJsonObject object, QString context)
    : m_object(std::move(object)),
      m_context(std::move(context))
{}

void JsonReader::setError(const QString &message)
{
    if (m_error.isEmpty())
        m_error = m_context.isEmpty() ? message : m_context + QStringLiteral(": ") + message;
}

bool JsonReader::check(const QString &key, bool present, bool rightType, const char *expected)
{
    if (!ok())
        return false;
    if (!present) {
        setError(QStringLiteral("missing field '%1'").arg(key));
        return false;
    }
    if (!rightType) {
        setError(QStringLiteral("field '%1': expected %2").arg(key, QLatin1String(expected)));
        return false;
    }
    return true;
}

QString JsonReader::string(const QString &key, int maxLength)
{
    const QJsonValue v = m_object.value(key);
    if (!check(key, !v.isUndefined(), v.isString(), "a string"))
        return {};
    const QString s = v.toString();
    if (s.size() > maxLength) {
        setError(QStringLiteral("field '%1': longer than %2 characters").arg(key).arg(maxLength));
        return {};
    }
    return s;
}

QString JsonReader::optionalString(const QString &key, const QString &fallback, int maxLength)
{
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    return string(key, maxLength);
}

qint64 JsonReader::integer(const QString &key, qint64 min, qint64 max)
{
    const QJsonValue v = m_object.value(key);
    if (!check(key, !v.isUndefined(), v.isDouble(), "a number"))
        return min;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d)) {
        setError(QStringLiteral("field '%1': expected an integer").arg(key));
        return min;
    }
    if (d < double(min) || d > double(max)) {
        setError(QStringLiteral("field '%1': %2 is outside [%3, %4]").arg(key).arg(d).arg(min).arg(max));
        return min;
    }
    return qint64(d);
}

qint64 JsonReader::optionalInteger(const QString &key, qint64 fallback, qint64 min, qint64 max)
{
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    return integer(key, min, max);
}

double JsonReader::number(const QString &key, double min, double max)
{
    const QJsonValue v = m_object.value(key);
    if (!check(key, !v.isUndefined(), v.isDouble(), "a number"))
        return min;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d < min || d > max) {
        setError(QStringLiteral("field '%1': %2 is outside [%3, %4]").arg(key).arg(d).arg(min).arg(max));
        return min;
    }
    return d;
}

double JsonReader::optionalNumber(const QString &key, double fallback, double min, double max)
{
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    return number(key, min, max);
}

bool JsonReader::optionalBool(const QString &key, bool fallback)
{
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined() || v.isNull())
        return fallback;
    if (!check(key, true, v.isBool(), "true or false"))
        return fallback;
    return v.toBool();
}

QJsonObject JsonReader::optionalObject(const QString &key)
{
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!check(key, true, v.isObject(), "an object"))
        return {};
    return v.toObject();
}

QJsonArray JsonReader::optionalArray(const QString &key, int maxItems)
{
    const QJsonValue v = m_object.value(key);
    if (v.isUndefined() || v.isNull())
        return {};
    if (!check(key, true, v.isArray(), "an array"))
        return {};
    const QJsonArray a = v.toArray();
    if (a.size() > maxItems) {
        setError(QStringLiteral("field '%1': more than %2 items").arg(key).arg(maxItems));
        return {};
    }
    return a;
}

} // namespace cohort
