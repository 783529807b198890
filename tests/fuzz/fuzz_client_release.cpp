// A hub's "client" object (GET /v1/health, registration and heartbeat replies: the newest Cohort, the oldest the hub
// works with, where to download): a hostile hub must not get a non-http(s) link or an unbounded string to the
// dashboard. What parses must hold those promises and survive a round trip; version comparison must be total.
#include "core/ClientRelease.h"
#include "core/JsonReader.h"

#include <QUrl>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto object = cohort::parseJsonObject(bytes);
    if (!object)
        return 0;
    const auto release = cohort::parseClientRelease(object->value(QStringLiteral("client")));
    if (!release)
        return 0;
    if (!release->downloadUrl.isEmpty()) {
        const QString scheme = QUrl(release->downloadUrl).scheme();
        if ((scheme != QLatin1String("https") && scheme != QLatin1String("http")) || release->downloadUrl.size() > 512)
            __builtin_trap();
    }
    if ((!release->latest.isEmpty() && !cohort::isVersion(release->latest)) ||
        (!release->minimum.isEmpty() && !cohort::isVersion(release->minimum)))
        __builtin_trap();
    const auto again = cohort::parseClientRelease(release->toJson());
    if (!again || !(*again == *release))
        __builtin_trap();
    const QString running = object->value(QStringLiteral("running")).toString().left(64);
    const auto order = cohort::compareVersions(running, release->latest);
    const auto reverse = cohort::compareVersions(release->latest, running);
    if (order.has_value() != reverse.has_value() || (order && *order != -*reverse))
        __builtin_trap();
    (void)cohort::assessUpdate(*release, running);
    return 0;
}
