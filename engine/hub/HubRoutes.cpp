// The hub's /v1 API: what each route accepts and answers.
#include "core/JsonReader.h"
#include "core/NodeState.h"
#include "core/Logging.h"
#include "core/PayoutAddress.h"
#include "hub/ApiServer.h"
#include "hub/HubService.h"
#include "hub/DilocoCoordinator.h"
#include "hub/HubStore.h"
#include "hub/RlCoordinator.h"
#include "net/Ed25519.h"
#include "shardcast/Publisher.h"

#include <QDateTime>
#include <QJsonArray>

namespace cohort {

namespace {
ApiResponse badRequest(const QString &message)
{
    return ApiResponse::error(400, QStringLiteral("bad_request"), message);
}

std::optional<ApiResponse> parseBody(const ApiRequest &request, QJsonObject *out)
{
    auto json = parseJsonObject(request.body);
    if (!json)
        return badRequest(json.error());
    *out = *json;
    return std::nullopt;
}

// The optional payout address of a registration or heartbeat: absent (keep the stored one), "" (none) or an address
// the settings page would accept too (core/PayoutAddress). The message never repeats the address: it may be logged.
std::optional<ApiResponse> readPayoutAddress(const QJsonObject &body, std::optional<QString> *out)
{
    const QString key = QStringLiteral("payout_address");
    if (!body.contains(key))
        return std::nullopt;
    const QJsonValue value = body.value(key);
    if (!value.isString())
        return ApiResponse::error(400, QStringLiteral("invalid_payout_address"), QStringLiteral("field 'payout_address': must be a string"));
    const QString address = value.toString();
    if (!address.isEmpty())
        if (const QString problem = payout::addressProblem(address); !problem.isEmpty())
            return ApiResponse::error(400, QStringLiteral("invalid_payout_address"), QStringLiteral("field 'payout_address': %1").arg(problem));
    *out = address;
    return std::nullopt;
}
} // namespace

void HubService::registerRoutes()
{
    const qint64 onlineWindowMs = qint64(m_config.heartbeatIntervalS) * 3 * 1000;

    m_server->addRoute("GET", QStringLiteral("/v1/health"), [this](const ApiRequest &) {
        return ApiResponse::json({{QStringLiteral("ok"), true},
                                  {QStringLiteral("version"), QStringLiteral(COHORT_VERSION_STRING)},
                                  {QStringLiteral("hub_key"), hubKeyBase64()},
                                  {QStringLiteral("server_time_ms"), QDateTime::currentMSecsSinceEpoch()}});
    });

    m_server->addRoute("GET", QStringLiteral("/v1/tasks"), [this](const ApiRequest &) {
        return ApiResponse::json(m_catalogue.toJson());
    });

    m_server->addRoute("GET", QStringLiteral("/v1/tasks/{id}"), [this](const ApiRequest &request) {
        const TaskInfo *task = m_catalogue.find(request.params.value(QStringLiteral("id")));
        if (!task)
            return ApiResponse::error(404, QStringLiteral("unknown_task"),
                                      QStringLiteral("no task with id '%1'").arg(request.params.value(QStringLiteral("id"))));
        return ApiResponse::json(task->toJson());
    });

    // DiLoCo progress as the hub sees it (ring, completed outer steps, credits): public, like the task list.
    m_server->addRoute("GET", QStringLiteral("/v1/tasks/{id}/diloco"), [this](const ApiRequest &request) {
        const DilocoTaskStats *stats = m_diloco ? m_diloco->stats(request.params.value(QStringLiteral("id"))) : nullptr;
        if (!stats)
            return ApiResponse::error(404, QStringLiteral("unknown_task"),
                                      QStringLiteral("no DiLoCo task with id '%1'").arg(request.params.value(QStringLiteral("id"))));
        return ApiResponse::json(stats->toJson());
    });

    m_server->addRoute("GET", QStringLiteral("/v1/tasks/{id}/checkpoint"), [this](const ApiRequest &request) {
        const QString id = request.params.value(QStringLiteral("id"));
        if (!m_catalogue.find(id))
            return ApiResponse::error(404, QStringLiteral("unknown_task"), QStringLiteral("no task with id '%1'").arg(id));
        auto latest = m_publisher->latest(id);
        if (!latest)
            return ApiResponse::error(404, QStringLiteral("no_checkpoint"), latest.error());
        QJsonArray relayList;
        for (const QString &r : relays())
            relayList.append(r);
        return ApiResponse::json({{QStringLiteral("task"), id},
                                  {QStringLiteral("version"), latest->manifest.version},
                                  {QStringLiteral("manifest"), QString::fromUtf8(latest->bytes)},
                                  {QStringLiteral("signature"), QString::fromUtf8(latest->signatureFileBytes())},
                                  {QStringLiteral("relays"), relayList}});
    });

    m_server->addRoute("POST", QStringLiteral("/v1/nodes/register"), [this](const ApiRequest &request) {
        VerifiedRequest signer;
        if (auto refused = authenticate(request, &signer))
            return *refused;
        QJsonObject body;
        if (auto bad = parseBody(request, &body))
            return *bad;
        JsonReader r(body);
        const QString name = r.string(QStringLiteral("name"), 64).trimmed();
        const QString version = r.optionalString(QStringLiteral("client_version"), {}, 32);
        const QJsonObject hardware = r.optionalObject(QStringLiteral("hardware"));
        if (!r.ok())
            return badRequest(r.error());
        if (name.isEmpty())
            return badRequest(QStringLiteral("field 'name': must not be empty"));
        std::optional<QString> payoutAddress;
        if (auto bad = readPayoutAddress(body, &payoutAddress))
            return *bad;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        auto node = m_store->registerNode(signer.publicKey, name, version, hardware, now, payoutAddress);
        if (!node)
            return ApiResponse::error(500, QStringLiteral("storage"), node.error());
        qCInfo(lcHub) << "node registered:" << node->nodeId << name << "from" << request.remote.toString() << "payout address"
                      << payout::redacted(node->payoutAddress);
        return ApiResponse::json({{QStringLiteral("node_id"), node->nodeId},
                                  {QStringLiteral("hub_key"), hubKeyBase64()},
                                  {QStringLiteral("hub_fingerprint"), m_identity->fingerprint()},
                                  {QStringLiteral("heartbeat_interval_s"), m_config.heartbeatIntervalS},
                                  {QStringLiteral("registered_at_ms"), node->registeredAtMs},
                                  {QStringLiteral("server_time_ms"), now}});
    });

    m_server->addRoute("POST", QStringLiteral("/v1/nodes/heartbeat"), [this](const ApiRequest &request) {
        VerifiedRequest signer;
        if (auto refused = authenticate(request, &signer))
            return *refused;
        QJsonObject body;
        if (auto bad = parseBody(request, &body))
            return *bad;
        JsonReader r(body);
        HeartbeatRecord hb;
        hb.state = r.string(QStringLiteral("state"), 32);
        hb.reason = r.optionalString(QStringLiteral("reason"), {}, 32);
        hb.why = r.optionalString(QStringLiteral("why"), {}, 500);
        hb.joinedTask = r.optionalString(QStringLiteral("joined_task"), {}, 64);
        hb.hardware = r.optionalObject(QStringLiteral("hardware"));
        hb.metrics = r.optionalObject(QStringLiteral("metrics"));
        if (!r.ok())
            return badRequest(r.error());
        bool known = false;
        nodeStateFromName(hb.state, &known);
        if (!known)
            return badRequest(QStringLiteral("field 'state': unknown state '%1'").arg(hb.state));
        if (!hb.joinedTask.isEmpty() && !m_catalogue.find(hb.joinedTask))
            return ApiResponse::error(404, QStringLiteral("unknown_task"), QStringLiteral("no task with id '%1'").arg(hb.joinedTask));
        if (auto bad = readPayoutAddress(body, &hb.payoutAddress))
            return *bad;
        // A changed address is worth a line in the hub's log (shortened: the log is no place for the whole of it).
        if (hb.payoutAddress)
            if (const auto before = m_store->nodeByKey(signer.publicKey); before && before->payoutAddress != *hb.payoutAddress)
                qCInfo(lcHub) << "node" << before->nodeId << "changed its payout address to" << payout::redacted(*hb.payoutAddress);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        auto recorded = m_store->recordHeartbeat(signer.publicKey, hb, now);
        if (!recorded)
            return ApiResponse::error(500, QStringLiteral("storage"), recorded.error());
        if (!*recorded)
            return ApiResponse::error(403, QStringLiteral("not_registered"), QStringLiteral("register this node first"));
        // A node joined an RL task: make sure its trainer runs (a new task starts with a warm-up).
        if (!hb.joinedTask.isEmpty())
            m_rl->ensureTrainer(hb.joinedTask);
        // Announce the newest checkpoint of the node's task, so it fetches new versions as they appear.
        QJsonObject checkpoints;
        if (!hb.joinedTask.isEmpty())
            if (const QList<int> versions = m_publisher->versions(hb.joinedTask); !versions.isEmpty())
                checkpoints.insert(hb.joinedTask, versions.last());
        return ApiResponse::json({{QStringLiteral("ok"), true},
                                  {QStringLiteral("server_time_ms"), now},
                                  {QStringLiteral("next_heartbeat_s"), m_config.heartbeatIntervalS},
                                  {QStringLiteral("checkpoints"), checkpoints},
                                  {QStringLiteral("instructions"), QJsonArray()}});
    });

    m_server->addRoute("GET", QStringLiteral("/v1/nodes"), [this, onlineWindowMs](const ApiRequest &) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QJsonArray nodes;
        for (const NodeRecord &n : m_store->nodes())
            nodes.append(n.toJson(now, onlineWindowMs));
        return ApiResponse::json({{QStringLiteral("nodes"), nodes}});
    });

    m_server->addRoute("GET", QStringLiteral("/v1/nodes/{id}"), [this, onlineWindowMs](const ApiRequest &request) {
        const auto node = m_store->node(request.params.value(QStringLiteral("id")));
        if (!node)
            return ApiResponse::error(404, QStringLiteral("unknown_node"),
                                      QStringLiteral("no node with id '%1'").arg(request.params.value(QStringLiteral("id"))));
        return ApiResponse::json(node->toJson(QDateTime::currentMSecsSinceEpoch(), onlineWindowMs));
    });
}

} // namespace cohort
