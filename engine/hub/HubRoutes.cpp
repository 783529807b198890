// The hub's /v1 API: what each route accepts and answers.
#include "core/JsonReader.h"
#include "core/Logging.h"
#include "core/NodeState.h"
#include "core/PayoutAddress.h"
#include "hub/DilocoCoordinator.h"
#include "hub/HubService.h"
#include "hub/HubStore.h"
#include "hub/RlCoordinator.h"
#include "net/ApiServer.h"
#include "net/BearerToken.h"
#include "net/Ed25519.h"
#include "net/RegistrationWork.h"
#include "shardcast/Publisher.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

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
        return ApiResponse::error(400, QStringLiteral("invalid_payout_address"),
                                  QStringLiteral("field 'payout_address': must be a string"));
    const QString address = value.toString();
    if (!address.isEmpty())
        if (const QString problem = payout::addressProblem(address); !problem.isEmpty())
            return ApiResponse::error(400, QStringLiteral("invalid_payout_address"),
                                      QStringLiteral("field 'payout_address': %1").arg(problem));
    *out = address;
    return std::nullopt;
}

// The free-form objects a node sends (hardware, metrics): JSON of a bounded shape, a few KiB at most, so that
// a thousand identities cannot store megabytes each or make every node list slow to read.
constexpr qsizetype kMaxNodeObjectBytes = 8 * 1024;
QString objectShapeProblem(const QJsonValue &value, int depth)
{
    if (depth > 4)
        return QStringLiteral("nested deeper than 4 levels");
    if (value.isString() && value.toString().size() > 256)
        return QStringLiteral("a string longer than 256 characters");
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        if (array.size() > 64)
            return QStringLiteral("an array of more than 64 items");
        for (const QJsonValue &item : array)
            if (QString p = objectShapeProblem(item, depth + 1); !p.isEmpty())
                return p;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        if (object.size() > 64)
            return QStringLiteral("an object of more than 64 fields");
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key().size() > 64)
                return QStringLiteral("a field name longer than 64 characters");
            if (QString p = objectShapeProblem(it.value(), depth + 1); !p.isEmpty())
                return p;
        }
    }
    return {};
}

std::optional<ApiResponse> checkNodeObject(const QString &field, const QJsonObject &object)
{
    if (object.isEmpty())
        return std::nullopt;
    QString problem = QJsonDocument(object).toJson(QJsonDocument::Compact).size() > kMaxNodeObjectBytes
                          ? QStringLiteral("larger than %1 KiB").arg(kMaxNodeObjectBytes / 1024)
                          : objectShapeProblem(object, 1);
    if (problem.isEmpty())
        return std::nullopt;
    return badRequest(QStringLiteral("field '%1': %2").arg(field, problem));
}

// A node older than the operator's minimum (core/ClientRelease) is told so, with the versions this hub advertises:
// it can then say which version to get and where, instead of retrying forever.
ApiResponse upgradeRequired(const ClientRelease &release, const QString &why)
{
    ApiResponse r = ApiResponse::error(426, QStringLiteral("upgrade_required"), why);
    r.body.insert(QStringLiteral("client"), release.toJson());
    return r;
}

// The advertised client versions join an answer as "client", when the operator set any.
QJsonObject withClientRelease(QJsonObject body, const ClientRelease &release)
{
    if (!release.isEmpty())
        body.insert(QStringLiteral("client"), release.toJson());
    return body;
}

constexpr int kDefaultNodePage = 100;
constexpr int kMaxNodePage = 500;
} // namespace

bool HubService::isOperator(const ApiRequest &request) const
{
    return bearerTokenMatches(request.header("authorization"), m_config.operatorToken);
}

void HubService::registerRoutes()
{
    const qint64 onlineWindowMs = this->onlineWindowMs();

    m_server->addRoute("GET", QStringLiteral("/v1/health"), [this](const ApiRequest &) {
        return ApiResponse::json(
            withClientRelease({{QStringLiteral("ok"), true},
                               {QStringLiteral("version"), QStringLiteral(COHORT_VERSION_STRING)},
                               {QStringLiteral("hub_key"), hubKeyBase64()},
                               {QStringLiteral("registration_work_bits"), m_config.registrationWorkBits},
                               {QStringLiteral("server_time_ms"), QDateTime::currentMSecsSinceEpoch()}},
                              m_config.clientRelease));
    });

    m_server->addRoute("GET", QStringLiteral("/v1/tasks"),
                       [this](const ApiRequest &) { return ApiResponse::json(m_catalogue.toJson()); });

    m_server->addRoute("GET", QStringLiteral("/v1/tasks/{id}"), [this](const ApiRequest &request) {
        const TaskInfo *task = m_catalogue.find(request.params.value(QStringLiteral("id")));
        if (!task)
            return ApiResponse::error(
                404, QStringLiteral("unknown_task"),
                QStringLiteral("no task with id '%1'").arg(request.params.value(QStringLiteral("id"))));
        return ApiResponse::json(task->toJson());
    });

    // DiLoCo progress as the hub sees it (ring, completed outer steps, credits): public, like the task list.
    m_server->addRoute("GET", QStringLiteral("/v1/tasks/{id}/diloco"), [this](const ApiRequest &request) {
        const DilocoTaskStats *stats = m_diloco ? m_diloco->stats(request.params.value(QStringLiteral("id"))) : nullptr;
        if (!stats)
            return ApiResponse::error(
                404, QStringLiteral("unknown_task"),
                QStringLiteral("no DiLoCo task with id '%1'").arg(request.params.value(QStringLiteral("id"))));
        return ApiResponse::json(stats->toJson());
    });

    m_server->addRoute("GET", QStringLiteral("/v1/tasks/{id}/checkpoint"), [this](const ApiRequest &request) {
        const QString id = request.params.value(QStringLiteral("id"));
        if (!m_catalogue.find(id))
            return ApiResponse::error(404, QStringLiteral("unknown_task"),
                                      QStringLiteral("no task with id '%1'").arg(id));
        auto latest = m_publisher->latest(id);
        if (!latest)
            return ApiResponse::error(404, QStringLiteral("no_checkpoint"), latest.error());
        QJsonArray relayList;
        for (const QString &r : relays(request.header("Host")))
            relayList.append(r);
        return ApiResponse::json({{QStringLiteral("task"), id},
                                  {QStringLiteral("version"), latest->manifest.version},
                                  {QStringLiteral("manifest"), QString::fromUtf8(latest->bytes)},
                                  {QStringLiteral("signature"), QString::fromUtf8(latest->signatureFileBytes())},
                                  {QStringLiteral("relays"), relayList}});
    });

    m_server->addRoute("POST", QStringLiteral("/v1/nodes/register"), [this](const ApiRequest &request) {
        VerifiedRequest signer;
        if (auto refused = authenticate(request, &signer, KeyUse::Registration))
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
        if (const QString refusal = clientVersionRefusal(m_config.clientRelease, version); !refusal.isEmpty())
            return upgradeRequired(m_config.clientRelease, refusal);
        if (auto bad = checkNodeObject(QStringLiteral("hardware"), hardware))
            return *bad;
        // A new identity brings its proof of work (bound to this hub's key and its own); a known one need not.
        if (m_config.registrationWorkBits > 0 && !m_store->isRegistered(signer.publicKey)) {
            const QByteArray stamp = body.value(QStringLiteral("work")).toString().left(32).toLatin1();
            if (!registrationWorkValid(m_identity->publicKey(), signer.publicKey, stamp,
                                       m_config.registrationWorkBits)) {
                ApiResponse r = ApiResponse::error(
                    403, QStringLiteral("work_required"),
                    QStringLiteral("a new identity registers with a proof of work of %1 bits (field 'work')")
                        .arg(m_config.registrationWorkBits));
                QJsonObject error = r.body.value(QStringLiteral("error")).toObject();
                error.insert(QStringLiteral("work_bits"), m_config.registrationWorkBits);
                error.insert(QStringLiteral("hub_key"), hubKeyBase64());
                r.body.insert(QStringLiteral("error"), error);
                return r;
            }
        }
        std::optional<QString> payoutAddress;
        if (auto bad = readPayoutAddress(body, &payoutAddress))
            return *bad;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        auto node = m_store->registerNode(signer.publicKey, name, version, hardware, now, payoutAddress);
        if (!node)
            return ApiResponse::error(500, QStringLiteral("storage"), node.error());
        qCInfo(lcHub) << "node registered:" << node->nodeId << name << "from" << request.remote.toString()
                      << "payout address" << payout::redacted(node->payoutAddress);
        return ApiResponse::json(
            withClientRelease({{QStringLiteral("node_id"), node->nodeId},
                               {QStringLiteral("hub_key"), hubKeyBase64()},
                               {QStringLiteral("hub_fingerprint"), m_identity->fingerprint()},
                               {QStringLiteral("heartbeat_interval_s"), m_config.heartbeatIntervalS},
                               {QStringLiteral("registered_at_ms"), node->registeredAtMs},
                               {QStringLiteral("server_time_ms"), now}},
                              m_config.clientRelease));
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
        QString clientVersion = r.optionalString(QStringLiteral("client_version"), {}, 32);
        if (!r.ok())
            return badRequest(r.error());
        if (!m_config.clientRelease.minimum.isEmpty()) {
            // Older nodes send no version with their heartbeats: the one they registered with stands for it.
            if (clientVersion.isEmpty())
                if (const auto known = m_store->nodeByKey(signer.publicKey))
                    clientVersion = known->clientVersion;
            if (const QString refusal = clientVersionRefusal(m_config.clientRelease, clientVersion); !refusal.isEmpty())
                return upgradeRequired(m_config.clientRelease, refusal);
        }
        for (const auto &[field, object] :
             {std::pair{QStringLiteral("hardware"), hb.hardware}, std::pair{QStringLiteral("metrics"), hb.metrics}})
            if (auto bad = checkNodeObject(field, object))
                return *bad;
        bool known = false;
        nodeStateFromName(hb.state, &known);
        if (!known)
            return badRequest(QStringLiteral("field 'state': unknown state '%1'").arg(hb.state));
        if (!hb.joinedTask.isEmpty() && !m_catalogue.find(hb.joinedTask))
            return ApiResponse::error(404, QStringLiteral("unknown_task"),
                                      QStringLiteral("no task with id '%1'").arg(hb.joinedTask));
        if (auto bad = readPayoutAddress(body, &hb.payoutAddress))
            return *bad;
        // A changed address is worth a line in the hub's log (shortened: the log is no place for the whole of it).
        if (hb.payoutAddress)
            if (const auto before = m_store->nodeByKey(signer.publicKey);
                before && before->payoutAddress != *hb.payoutAddress)
                qCInfo(lcHub) << "node" << before->nodeId << "changed its payout address to"
                              << payout::redacted(*hb.payoutAddress);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        auto recorded = m_store->recordHeartbeat(signer.publicKey, hb, now);
        if (!recorded)
            return ApiResponse::error(500, QStringLiteral("storage"), recorded.error());
        if (!*recorded)
            return ApiResponse::error(403, QStringLiteral("not_registered"),
                                      QStringLiteral("register this node first"));
        // A node joined an RL task: on a hub whose trainers start on demand, make sure its trainer runs.
        if (!hb.joinedTask.isEmpty())
            m_rl->nodeWantsTask(hb.joinedTask);
        // Announce the newest checkpoint of the node's task, so it fetches new versions as they appear.
        QJsonObject checkpoints;
        if (!hb.joinedTask.isEmpty())
            if (const QList<int> versions = m_publisher->versions(hb.joinedTask); !versions.isEmpty())
                checkpoints.insert(hb.joinedTask, versions.last());
        // And its part in that task's accepted work (RL tasks), for the contributor's own view.
        QJsonObject contribution;
        if (!hb.joinedTask.isEmpty())
            if (const auto node = m_store->nodeByKey(signer.publicKey))
                contribution = m_rl->contributionOf(hb.joinedTask, node->nodeId);
        return ApiResponse::json(withClientRelease({{QStringLiteral("ok"), true},
                                                    {QStringLiteral("server_time_ms"), now},
                                                    {QStringLiteral("next_heartbeat_s"), m_config.heartbeatIntervalS},
                                                    {QStringLiteral("checkpoints"), checkpoints},
                                                    {QStringLiteral("contribution"), contribution},
                                                    {QStringLiteral("instructions"), QJsonArray()}},
                                                   m_config.clientRelease));
    });

    // Anyone sees the public view of each node (id, state, task, online); the operator (bearer token) sees every
    // field. Pages of at most 500, ordered by id: ?limit=N&after=<node id of the last one seen>.
    m_server->addRoute("GET", QStringLiteral("/v1/nodes"), [this, onlineWindowMs](const ApiRequest &request) {
        bool ok = true;
        const QString limitText = request.query.queryItemValue(QStringLiteral("limit"));
        const int limit = limitText.isEmpty() ? kDefaultNodePage : limitText.toInt(&ok);
        if (!ok || limit < 1 || limit > kMaxNodePage)
            return badRequest(QStringLiteral("'limit' must be 1..%1").arg(kMaxNodePage));
        const QString after = request.query.queryItemValue(QStringLiteral("after"));
        if (after.size() > 128)
            return badRequest(QStringLiteral("'after' is no node id"));
        const bool full = isOperator(request);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const QList<NodeRecord> page = m_store->nodesPage(after, limit, !full);
        QJsonArray nodes;
        for (const NodeRecord &n : page)
            nodes.append(full ? n.toJson(now, onlineWindowMs) : n.toPublicJson(now, onlineWindowMs));
        QJsonObject body{{QStringLiteral("nodes"), nodes}};
        if (page.size() == limit)
            body.insert(QStringLiteral("next_after"), page.last().nodeId);
        return ApiResponse::json(body);
    });

    // The whole record for the node itself (a signed request by its key) and the operator; the public view otherwise.
    m_server->addRoute("GET", QStringLiteral("/v1/nodes/{id}"), [this, onlineWindowMs](const ApiRequest &request) {
        const auto node = m_store->node(request.params.value(QStringLiteral("id")));
        if (!node)
            return ApiResponse::error(
                404, QStringLiteral("unknown_node"),
                QStringLiteral("no node with id '%1'").arg(request.params.value(QStringLiteral("id"))));
        bool full = isOperator(request);
        if (!full && !request.header(signing::kSignatureHeader).isEmpty()) {
            VerifiedRequest signer;
            if (auto refused = authenticate(request, &signer))
                return *refused;
            full = signer.publicKey == node->publicKey;
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        return ApiResponse::json(full ? node->toJson(now, onlineWindowMs) : node->toPublicJson(now, onlineWindowMs));
    });
}

} // namespace cohort
