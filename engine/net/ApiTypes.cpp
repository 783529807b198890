#include "net/ApiTypes.h"

#include <QJsonDocument>

namespace cohort {

QByteArray ApiRequest::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

ApiResponse ApiResponse::json(QJsonObject body, int status)
{
    ApiResponse r;
    r.status = status;
    r.body = std::move(body);
    return r;
}

ApiResponse ApiResponse::raw(QByteArray body, QByteArray contentType, int status)
{
    ApiResponse r;
    r.status = status;
    r.rawBody = std::move(body);
    r.contentType = std::move(contentType);
    return r;
}

QByteArray ApiResponse::wireBody() const
{
    return contentType.isEmpty() ? QJsonDocument(body).toJson(QJsonDocument::Compact) : rawBody;
}

QByteArray ApiResponse::wireContentType() const
{
    return contentType.isEmpty() ? QByteArrayLiteral("application/json") : contentType;
}

ApiResponse ApiResponse::error(int status, const QString &code, const QString &message)
{
    return json(QJsonObject{{QStringLiteral("error"),
                             QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}},
                status);
}

} // namespace cohort
