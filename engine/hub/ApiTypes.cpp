#include "hub/ApiTypes.h"

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

ApiResponse ApiResponse::error(int status, const QString &code, const QString &message)
{
    return json(QJsonObject{{QStringLiteral("error"),
                             QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}},
                status);
}

} // namespace cohort
