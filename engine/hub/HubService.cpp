#include "hub/HubService.h"
#include "hub/DilocoCoordinator.h"

#include "hub/Ledger.h"

#include "core/Logging.h"
#include "hub/ApiServer.h"
#include "hub/HubStore.h"
#include "hub/RlCoordinator.h"
#include "shardcast/Publisher.h"
#include "shardcast/RelayServer.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace cohort {

HubService::HubService(HubConfig config, QObject *parent)
    : QObject(parent),
      m_config(std::move(config)),
      m_replays(m_config.clockWindowMs),
      m_verifier(m_replays, m_config.clockWindowMs)
{
}

HubService::~HubService()
{
    delete m_rl; // stops the trainer threads before the store they write to goes away
    m_rl = nullptr;
}

Status HubService::clearNodeFlag(const QString &dataDir, const QString &nodeId, const QString &taskId)
{
    const QString path = QDir(dataDir).filePath(QStringLiteral("hub.sqlite"));
    if (!QFileInfo::exists(path))
        return fail(QStringLiteral("no hub database at %1").arg(path));
    auto store = HubStore::open(path);
    if (!store)
        return fail(store.error());
    return Ledger((*store)->connectionName()).clearNodeFlag(nodeId, taskId);
}

Status HubService::start()
{
    if (m_config.dataDir.isEmpty())
        return fail(QStringLiteral("the hub needs a data folder"));
    if (!QDir().mkpath(m_config.dataDir))
        return fail(QStringLiteral("cannot create the hub data folder %1").arg(m_config.dataDir));

    auto identity = Identity::loadOrCreate(QDir(m_config.dataDir).filePath(QStringLiteral("identity")), QStringLiteral("hub"));
    if (!identity)
        return fail(identity.error());
    m_identity = std::move(identity).value();

    auto catalogue = m_config.catalogueFile.isEmpty() ? TaskCatalogue::loadDefault()
                                                      : TaskCatalogue::loadFile(m_config.catalogueFile);
    if (!catalogue)
        return fail(catalogue.error());
    m_catalogue = std::move(catalogue).value();

    auto store = HubStore::open(QDir(m_config.dataDir).filePath(QStringLiteral("hub.sqlite")));
    if (!store)
        return fail(store.error());
    m_store = std::move(store).value();

    m_publisher = std::make_unique<shardcast::Publisher>(treeDir(), *m_identity, m_config.shardSize, m_config.keepVersions);
    m_relay = new shardcast::RelayServer(treeDir(), this);
    QString relayError;
    if (!m_relay->listenOn(m_config.address, m_config.relayPort, &relayError))
        return fail(relayError);

    RlCoordinatorConfig rlConfig;
    rlConfig.stateDir = QDir(m_config.dataDir).filePath(QStringLiteral("trainer"));
    rlConfig.ackDelayMs = m_config.rolloutAckDelayMs;
    m_rl = new RlCoordinator(rlConfig, *m_store, m_catalogue, *m_publisher,
                             [this](const ApiRequest &r, VerifiedRequest *v) { return authenticate(r, v); }, this);

    m_diloco = new DilocoCoordinator(*m_store, m_catalogue, this);
    if (Status s = m_diloco->start(m_config.address, m_config.dilocoPort); !s)
        return s;

    m_server = new ApiServer(m_config.maxBodyBytes, this);
    registerRoutes();
    m_rl->registerRoutes(*m_server);
    QString error;
    if (m_server->listenOn(m_config.address, m_config.port, &error) == 0)
        return fail(error);
    qCInfo(lcHub) << "hub listening on" << url() << "with" << m_catalogue.tasks().size() << "tasks; key"
                  << m_identity->fingerprint();
    return {};
}

quint16 HubService::port() const
{
    return m_server ? m_server->port() : 0;
}

QString HubService::url() const
{
    QString host = m_config.address.toString();
    if (m_config.address.protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    if (m_config.address == QHostAddress::Any || m_config.address == QHostAddress::AnyIPv4)
        host = QStringLiteral("127.0.0.1");
    return QStringLiteral("http://%1:%2").arg(host).arg(port());
}

QString HubService::treeDir() const
{
    return QDir(m_config.dataDir).filePath(QStringLiteral("shardcast"));
}

QString HubService::relayUrl() const
{
    return m_relay ? m_relay->url() : QString();
}

QStringList HubService::relays() const
{
    QStringList list = m_config.extraRelays;
    if (m_config.selfRelay && m_relay)
        list.append(m_relay->url());
    return list;
}

Expected<shardcast::SignedManifest> HubService::publish(const QString &taskId, const QString &checkpointPath)
{
    if (!m_publisher)
        return fail(QStringLiteral("the hub is not started"));
    if (!m_catalogue.find(taskId))
        return fail(QStringLiteral("no task '%1' in the catalogue").arg(taskId));
    return m_publisher->publish(taskId, checkpointPath);
}

ApiResponse HubService::handle(const ApiRequest &request)
{
    if (!m_server)
        return ApiResponse::error(503, QStringLiteral("not_started"), QStringLiteral("the hub is not started"));
    return m_server->dispatch(request);
}

std::optional<ApiResponse> HubService::authenticate(const ApiRequest &request, VerifiedRequest *verified)
{
    VerificationError error;
    const auto lookup = [&request](const QByteArray &name) { return request.header(name); };
    if (m_verifier.verify(request.method, request.pathAndQuery, lookup, request.body,
                          QDateTime::currentMSecsSinceEpoch(), verified, &error))
        return std::nullopt;
    qCInfo(lcHub) << "refused" << request.method << request.path << "from" << request.remote.toString() << ":"
                  << error.code << error.message;
    return ApiResponse::error(error.httpStatus, error.code, error.message);
}

} // namespace cohort
