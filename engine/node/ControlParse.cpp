// The control API's parsers, apart from the server so that a fuzzer (tests/fuzz/fuzz_control_api.cpp) can reach
// them without the engine: control.json, the Authorization header and the snooze body.
#include "node/ControlApi.h"

#include "core/JsonReader.h"
#include "net/BearerToken.h"

#include <QUrl>
#include <algorithm>

namespace cohort {

namespace {
constexpr int kMaxSnoozeSeconds = 7 * 24 * 3600;

} // namespace

bool controlAuthorized(const QByteArray &authorization, const QByteArray &token)
{
    return bearerTokenMatches(authorization, token);
}

Expected<int> parseSnoozeBody(const QByteArray &body)
{
    auto object = parseJsonObject(body, 4096);
    if (!object)
        return fail(object.error());
    JsonReader reader(*object, QStringLiteral("snooze"));
    const qint64 seconds = reader.integer(QStringLiteral("seconds"), 0, kMaxSnoozeSeconds);
    if (!reader.ok())
        return fail(reader.error());
    return int(seconds);
}

Expected<QString> parseGpuBody(const QByteArray &body)
{
    if (body.trimmed().isEmpty())
        return QString();
    auto object = parseJsonObject(body, 4096);
    if (!object)
        return fail(object.error());
    if (object->isEmpty())
        return QString(); // {}: what clients send for the whole node
    JsonReader reader(*object, QStringLiteral("request"));
    const QString gpu = reader.string(QStringLiteral("gpu"), 96);
    if (!reader.ok())
        return fail(reader.error());
    const bool printable = std::all_of(gpu.begin(), gpu.end(), [](QChar c) { return c.isPrint() && !c.isSpace(); });
    if (gpu.isEmpty() || !printable)
        return fail(QStringLiteral("field 'gpu': expected a GPU's UUID, as the status lists under compute_workers"));
    return gpu;
}

Expected<ControlEndpoint> ControlEndpoint::parse(const QByteArray &json)
{
    auto object = parseJsonObject(json, 4096);
    if (!object)
        return fail(object.error());
    JsonReader r(*object, QStringLiteral("control.json"));
    ControlEndpoint e;
    e.url = r.string(QStringLiteral("url"), 64);
    e.token = r.string(QStringLiteral("token"), 128).toLatin1();
    if (!r.ok())
        return fail(r.error());
    const QUrl url(e.url);
    if (url.scheme() != QLatin1String("http") || url.host() != QLatin1String("127.0.0.1") || url.port() <= 0)
        return fail(QStringLiteral("control.json names %1, not a 127.0.0.1 address").arg(e.url));
    return e;
}

} // namespace cohort
