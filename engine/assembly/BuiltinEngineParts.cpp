#include "assembly/BuiltinEngineParts.h"

#include "hub/EmbeddedHub.h"
#include "node/Engine.h"

#include <QHostAddress>

namespace cohort {

namespace {
EngineBackend *createEngine(const EngineOptions &options, const QString &hubUrl, bool embeddedHub)
{
    return new Engine(options, hubUrl, embeddedHub);
}

LocalNetwork *createLocalNetwork(const QString &dataDir)
{
    HubConfig config;
    config.dataDir = dataDir;
    config.address = QHostAddress::LocalHost;
    config.dilocoMinRingSize = 1; // this machine alone: its node trains DiLoCo on its own
    return new EmbeddedHub(config);
}
} // namespace

const EngineParts &builtinEngineParts()
{
    static const EngineParts parts{&createEngine, &createLocalNetwork};
    return parts;
}

} // namespace cohort
