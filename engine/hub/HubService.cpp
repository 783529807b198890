#include "hub/HubService.h"
#include "hub/DilocoCoordinator.h"

#include "hub/Ledger.h"

#include "core/KeyedRateLimit.h"
#include "core/Logging.h"
#include "hub/HubMetrics.h"
#include "hub/HubStore.h"
#include "hub/ReachabilityProbe.h"
#include "hub/RlCoordinator.h"
#include "net/ApiServer.h"
#include "net/Tls.h"
#include "shardcast/Publisher.h"
#include "shardcast/RelayServer.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QUrl>

namespace cohort {

ListenerLimits relayDefaultLimits()
{
    return shardcast::RelayServer::defaultLimits();
}

HostCheck HubService::hostCheck() const
{
    const QHostAddress &a = m_config.address;
    const bool wildcard = a == QHostAddress::Any || a == QHostAddress::AnyIPv4 || a == QHostAddress::AnyIPv6;
    if (wildcard && m_config.publicNames.isEmpty())
        return HostCheck(); // any Host: the operator named none
    HostCheck check = HostCheck::loopbackOnly();
    if (!wildcard)
        check.allow(a.toString());
    for (const QString &name : m_config.publicNames)
        check.allow(name);
    return check;
}

const ConnectionGate *HubService::apiGate() const
{
    return m_server ? m_server->gate() : nullptr;
}

const ConnectionGate *HubService::relayGate() const
{
    return m_relay ? m_relay->gate() : nullptr;
}

HubService::HubService(HubConfig config, QObject *parent)
    : QObject(parent),
      m_config(std::move(config)),
      m_replays(m_config.clockWindowMs),
      m_registrations(
          std::make_unique<KeyedRateLimit>(m_config.registrationsPerMinute / 60.0, m_config.registrationBurst)),
      m_verifier(m_replays, m_config.clockWindowMs)
{}

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
    for (const ListenerLimits *limits : {&m_config.apiLimits, &m_config.relayLimits})
        if (const QString problem = limits->problem(); !problem.isEmpty())
            return fail(QStringLiteral("connection limits: %1").arg(problem));
    if (const QString problem = clientReleaseProblem(m_config.clientRelease); !problem.isEmpty())
        return fail(QStringLiteral("client versions: %1").arg(problem));
    if (!QDir().mkpath(m_config.dataDir))
        return fail(QStringLiteral("cannot create the hub data folder %1").arg(m_config.dataDir));

    auto identity =
        Identity::loadOrCreate(QDir(m_config.dataDir).filePath(QStringLiteral("identity")), QStringLiteral("hub"));
    if (!identity)
        return fail(identity.error());
    m_identity = std::move(identity).value();
    m_verifier.setHubKey(m_identity->publicKey());

    auto catalogue = m_config.catalogueFile.isEmpty() ? TaskCatalogue::loadDefault()
                                                      : TaskCatalogue::loadFile(m_config.catalogueFile);
    if (!catalogue)
        return fail(catalogue.error());
    m_catalogue = std::move(catalogue).value();
    if (m_config.dilocoMinRingSize > 0)
        m_catalogue.setDilocoMinRingSize(m_config.dilocoMinRingSize);

    auto store = HubStore::open(QDir(m_config.dataDir).filePath(QStringLiteral("hub.sqlite")));
    if (!store)
        return fail(store.error());
    m_store = std::move(store).value();

    m_publisher =
        std::make_unique<shardcast::Publisher>(treeDir(), *m_identity, m_config.shardSize, m_config.keepVersions);
    if (m_config.tlsCertificateFile.isEmpty() != m_config.tlsKeyFile.isEmpty())
        return fail(QStringLiteral("TLS needs both a certificate and its key"));
    if (!m_config.tlsCertificateFile.isEmpty()) {
        auto tls = ServerTls::create(m_config.tlsCertificateFile, m_config.tlsKeyFile, m_config.tlsCheckSeconds, this);
        if (!tls)
            return fail(tls.error());
        m_tls = *tls;
    }
    const HostCheck hosts = hostCheck();
    if (hosts.answersAnyHost())
        qCWarning(lcHub) << "listening on every address with no --public-name: requests naming any host are answered";
    m_relay = new shardcast::RelayServer(treeDir(), this);
    m_relay->setListenerLimits(m_config.relayLimits);
    m_relay->setHostCheck(hosts);
    m_relay->setTls(m_tls);
    QString relayError;
    if (!m_relay->listenOn(m_config.address, m_config.relayPort, &relayError))
        return fail(relayError);

    RlCoordinatorConfig rlConfig;
    rlConfig.stateDir = QDir(m_config.dataDir).filePath(QStringLiteral("trainer"));
    rlConfig.ackDelayMs = m_config.rolloutAckDelayMs;
    rlConfig.trainersOnDemand = m_config.trainersOnDemand;
    m_rl = new RlCoordinator(
        rlConfig, *m_store, m_catalogue, *m_publisher,
        [this](const ApiRequest &r, VerifiedRequest *v) { return authenticate(r, v); }, this);

    m_diloco = new DilocoCoordinator(*m_store, m_catalogue, m_config.apiLimits, this);
    m_rl->setProgressExtension([this](const QString &taskId) { return m_diloco->progress(taskId); });
    // Each DiLoCo master signs the shared state it records with the hub's key (nodes pin it): a sybil group that
    // joins later cannot make a node take other weights.
    m_diloco->setRecordSigner([this](const QByteArray &message) { return m_identity->sign(message); });
    if (Status s = m_diloco->start(m_config.address, m_config.dilocoPort); !s)
        return s;

    m_server = new ApiServer(m_config.maxBodyBytes, this);
    m_server->setListenerLimits(m_config.apiLimits, "hub API");
    m_server->setHostCheck(hosts);
    m_server->setTls(m_tls);
    m_server->setTrustedProxies(m_config.trustedProxies);
    m_server->setReplySigner([this](const QByteArray &message) { return m_identity->sign(message).toBase64(); },
                             m_identity->publicKeyBase64().toLatin1());
    registerRoutes();
    // Prometheus text for the operator (README "Metrics"): the operator's token only.
    m_metrics = std::make_unique<HubMetrics>(*this, *m_store, *m_publisher);
    m_server->addRoute("GET", QStringLiteral("/metrics"), [this](const ApiRequest &r) { return m_metrics->handle(r); });
    m_rl->registerRoutes(*m_server);
    // `cohortd --doctor` asks whether peers can reach its DiLoCo listener (connect-back to the asker only).
    (new ReachabilityProbe(m_config.address.isLoopback(), this))->registerRoutes(*m_server);
    m_diloco->registerRoutes(*m_server, [this](const ApiRequest &r, VerifiedRequest *v) { return authenticate(r, v); });
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
    return QStringLiteral("%1://%2:%3").arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"), host).arg(port());
}

QString HubService::treeDir() const
{
    return QDir(m_config.dataDir).filePath(QStringLiteral("shardcast"));
}

QString HubService::relayUrl() const
{
    return m_relay ? m_relay->url() : QString();
}

QStringList HubService::relays(const QByteArray &hostHeader) const
{
    QStringList list = m_config.extraRelays;
    if (!m_config.selfRelay || !m_relay)
        return list;
    QUrl own(m_relay->url());
    const QHostAddress bound = m_relay->serverAddress();
    if (bound == QHostAddress::Any || bound == QHostAddress::AnyIPv4 || bound == QHostAddress::AnyIPv6) {
        QString host = HostCheck::hostOf(hostHeader);
        if (host.isEmpty() && !m_config.publicNames.isEmpty())
            host = m_config.publicNames.first();
        if (!host.isEmpty())
            own.setHost(host); // QUrl brackets an IPv6 literal itself
    }
    list.append(own.toString(QUrl::FullyEncoded));
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

std::optional<ApiResponse> HubService::authenticate(const ApiRequest &request, VerifiedRequest *verified, KeyUse use)
{
    VerificationError error;
    const auto lookup = [&request](const QByteArray &name) { return request.header(name); };
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // Checked after the signature and clock (so a forger learns nothing) and before the replay guard (so keys
    // nobody registered cannot fill it).
    const auto keyCheck = [this, use, &request, now](const QByteArray &key) -> std::optional<VerificationError> {
        if (m_store && m_store->isRegistered(key))
            return std::nullopt;
        if (use == KeyUse::RegisteredOnly)
            return VerificationError{403, QStringLiteral("not_registered"), QStringLiteral("register this node first")};
        qint64 retryMs = 0;
        if (!m_registrations->take(connectionSourceKey(request.remote), now, &retryMs))
            return VerificationError{429, QStringLiteral("rate_limited"),
                                     QStringLiteral("too many new identities from this address; try again in %1 s")
                                         .arg((retryMs + 999) / 1000),
                                     int(qMax<qint64>(1, (retryMs + 999) / 1000))};
        return std::nullopt;
    };
    if (m_verifier.verify(request.method, request.pathAndQuery, lookup, request.body, now, verified, &error, keyCheck))
        return std::nullopt;
    qCInfo(lcHub) << "refused" << request.method << request.path << "from" << request.remote.toString() << ":"
                  << error.code << error.message;
    ApiResponse refused = ApiResponse::error(error.httpStatus, error.code, error.message);
    if (error.retryAfterS > 0)
        refused.headers.append({"Retry-After", QByteArray::number(error.retryAfterS)});
    return refused;
}

} // namespace cohort
