#include "node/ControlApi.h"

#include "api/EngineController.h"
#include "core/JsonReader.h"
#include "core/Logging.h"
#include "core/PrometheusText.h"
#include "net/ApiServer.h"
#include "node/NodeMetrics.h"
#include "platform/FilePermissions.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QTimer>

namespace cohort {

namespace {
QString fileIn(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("control.json"));
}
} // namespace

ControlServer::ControlServer(EngineController &controller, QString dataDir, QObject *parent)
    : QObject(parent),
      m_controller(controller),
      m_dataDir(std::move(dataDir)),
      m_metrics(std::make_unique<NodeMetrics>(controller))
{}

ControlServer::~ControlServer()
{
    if (m_server)
        QFile::remove(controlFile()); // a stale file would point clients at a port someone else may own
}

QString ControlServer::controlFile() const
{
    return fileIn(m_dataDir);
}

QString ControlServer::url() const
{
    return m_server ? QStringLiteral("http://127.0.0.1:%1").arg(m_server->port()) : QString();
}

Status ControlServer::start(quint16 port, const QByteArray &token)
{
    if (!token.isEmpty()) {
        m_token = token;
    } else {
        QByteArray raw(32, Qt::Uninitialized);
        QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(raw.data()),
                                             reinterpret_cast<quint32 *>(raw.data() + raw.size()));
        m_token = raw.toHex();
    }
    auto server = std::make_unique<ApiServer>(4096);
    // Only this machine's programs call it: a few connections, and loopback names only (a web page that
    // rebinds its name to 127.0.0.1, or posts from its own origin, is refused).
    ListenerLimits limits;
    limits.maxConnections = 32;
    limits.maxPerSource = 32;
    server->setListenerLimits(limits, "control API");
    server->setHostCheck(HostCheck::loopbackOnly());
    const auto guarded = [this](auto action) {
        return [this, action](const ApiRequest &r) -> ApiResponse {
            if (!controlAuthorized(r.header("authorization"), m_token))
                return ApiResponse::error(
                    401, QStringLiteral("unauthorized"),
                    QStringLiteral("send the token from control.json as 'Authorization: Bearer <token>'"));
            return action(r);
        };
    };
    const auto ok = [this](const QString &done) {
        return ApiResponse::json({{QStringLiteral("ok"), true},
                                  {QStringLiteral("done"), done},
                                  {QStringLiteral("status"), m_controller.snapshot().toJson()}});
    };
    server->addRoute("GET", QStringLiteral("/v1/status"), guarded([this](const ApiRequest &) {
                         return ApiResponse::json(m_controller.snapshot().toJson());
                     }));
    // Prometheus text for the machine's owner (README "Metrics"), behind the same token: Prometheus sends it from a
    // file (authorization: credentials_file).
    server->addRoute("GET", QStringLiteral("/metrics"), guarded([this](const ApiRequest &) {
                         return ApiResponse::raw(m_metrics->render(), prometheus::kContentType);
                     }));
    // Pause and resume take {"gpu": "<uuid>"} for one GPU's worker; an empty body is the whole node.
    const auto pauseOrResume = [this, ok](bool pause) {
        return [this, ok, pause](const ApiRequest &r) {
            auto gpu = parseGpuBody(r.body);
            if (!gpu)
                return ApiResponse::error(400, QStringLiteral("bad_request"), gpu.error());
            if (gpu->isEmpty()) {
                pause ? m_controller.pause() : m_controller.resume();
                return ok(pause ? QStringLiteral("pause") : QStringLiteral("resume"));
            }
            QStringList known;
            for (const ComputeWorkerStatus &w : m_controller.snapshot().computeWorkers)
                if (!w.gpuUuid.isEmpty())
                    known.append(w.gpuUuid);
            if (!known.contains(*gpu))
                return ApiResponse::error(404, QStringLiteral("no_such_gpu"),
                                          QStringLiteral("no compute worker runs on GPU %1 (they run on: %2)")
                                              .arg(*gpu, known.isEmpty() ? QStringLiteral("the CPU only")
                                                                         : known.join(QStringLiteral(", "))));
            m_controller.setGpuPaused(*gpu, pause);
            return ok(pause ? QStringLiteral("pause-gpu") : QStringLiteral("resume-gpu"));
        };
    };
    server->addRoute("POST", QStringLiteral("/v1/pause"), guarded(pauseOrResume(true)));
    server->addRoute("POST", QStringLiteral("/v1/pause-after-step"), guarded([this, ok](const ApiRequest &) {
                         m_controller.pauseAfterStep();
                         return ok(QStringLiteral("pause-after-step"));
                     }));
    server->addRoute("POST", QStringLiteral("/v1/resume"), guarded(pauseOrResume(false)));
    server->addRoute("POST", QStringLiteral("/v1/snooze"), guarded([this, ok](const ApiRequest &r) {
                         auto seconds = parseSnoozeBody(r.body);
                         if (!seconds)
                             return ApiResponse::error(400, QStringLiteral("bad_request"), seconds.error());
                         m_controller.snooze(*seconds);
                         return ok(QStringLiteral("snooze"));
                     }));
    QString error;
    if (server->listenOn(QHostAddress::LocalHost, port, &error) == 0)
        return fail(QStringLiteral("the control API cannot listen: %1").arg(error));
    m_server = std::move(server);

    QDir().mkpath(m_dataDir);
    // Owner-only from its first byte: a descriptor opened while the file was world-readable would read the token later.
    const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("url"), url()},
                                                      {QStringLiteral("token"), QString::fromLatin1(m_token)}})
                                .toJson(QJsonDocument::Compact);
    if (Status written = writeOwnerOnlyFile(controlFile(), json); !written)
        return written;
    qCInfo(lcEngine) << "control API on" << url() << "(token in" << controlFile() << ")";
    return {};
}

Expected<ControlEndpoint> ControlEndpoint::fromDataDir(const QString &dataDir)
{
    QFile file(fileIn(dataDir));
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("no running node found (%1: %2)").arg(file.fileName(), file.errorString()));
    auto endpoint = parse(file.read(4096));
    if (!endpoint)
        return fail(QStringLiteral("%1 is damaged: %2").arg(file.fileName(), endpoint.error()));
    return endpoint;
}

Expected<QJsonObject> controlRequest(const ControlEndpoint &endpoint, const QByteArray &method, const QString &path,
                                     const QJsonObject &body, int timeoutMs)
{
    QNetworkAccessManager net;
    QNetworkRequest request(QUrl(endpoint.url + path));
    request.setRawHeader("Authorization", "Bearer " + endpoint.token);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = net.sendCustomRequest(
        request, method, method == "GET" ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    const QByteArray answer = reply->readAll();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString networkError = reply->error() == QNetworkReply::NoError ? QString() : reply->errorString();
    reply->deleteLater();
    auto object = parseJsonObject(answer, 4 << 20);
    if (status == 200 && object)
        return *object;
    if (object && object->value(QStringLiteral("error")).isObject())
        return fail(
            QStringLiteral("%1 (HTTP %2)")
                .arg(object->value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString())
                .arg(status));
    return fail(networkError.isEmpty() ? QStringLiteral("unexpected answer (HTTP %1)").arg(status) : networkError);
}

} // namespace cohort
