// Every /v1 route with arbitrary method, path and body, signed by a registered node so the body parsers are
// reached. The hub must answer every request with a status and a JSON object, and keep working.
#include "hub/HubService.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTemporaryDir>
#include <cstdint>

namespace {
struct Fixture {
    QTemporaryDir dir;
    std::unique_ptr<cohort::HubService> hub;
    std::optional<cohort::Identity> node;
    Fixture()
    {
        cohort::HubConfig config;
        config.dataDir = dir.filePath(QStringLiteral("hub"));
        hub = std::make_unique<cohort::HubService>(config);
        if (!hub->start())
            __builtin_trap();
        node = *cohort::Identity::loadOrCreate(dir.filePath(QStringLiteral("node")));
    }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int argc = 1;
    static char name[] = "fuzz_hub_api";
    static char *argv[] = {name, nullptr};
    static QCoreApplication app(argc, argv);
    static Fixture fixture;

    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype nl = bytes.indexOf('\n');
    const QByteArray head = nl < 0 ? bytes : bytes.left(nl);
    cohort::ApiRequest request;
    request.method = (head.startsWith('G') ? QByteArray("GET") : QByteArray("POST"));
    request.path = QString::fromUtf8(head.mid(1));
    request.pathAndQuery = head.mid(1);
    request.body = nl < 0 ? QByteArray() : bytes.mid(nl + 1);
    request.headers = cohort::signRequest(*fixture.node, request.method, request.pathAndQuery, request.body,
                                          QDateTime::currentMSecsSinceEpoch());
    const cohort::ApiResponse response = fixture.hub->handle(request);
    if (response.status < 200 || response.status > 599)
        __builtin_trap();
    if (response.status >= 400 && !response.body.contains(QStringLiteral("error")))
        __builtin_trap();
    return 0;
}
