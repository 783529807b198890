#include "hub/HubMetrics.h"

#include "core/Logging.h"
#include "core/PrometheusText.h"
#include "hub/HubService.h"
#include "shardcast/Publisher.h"

#include <QDateTime>

namespace cohort {

using prometheus::Labels;
using prometheus::Type;

QByteArray renderHubMetrics(const HubMetricsInput &in)
{
    prometheus::Writer w;
    w.family("cohort_hub_build_info", Type::Gauge, QStringLiteral("The Cohort version this hub runs (always 1)."));
    w.add(1, {{"version", QStringLiteral(COHORT_VERSION_STRING)}});

    w.family("cohort_hub_nodes_registered", Type::Gauge, QStringLiteral("Node identities registered with this hub."));
    w.add(in.nodes.registered);
    w.family("cohort_hub_nodes_online", Type::Gauge,
             QStringLiteral("Nodes whose last heartbeat is within the online window (three heartbeat intervals)."));
    w.add(in.nodes.online);

    // One family at a time over every task: the format wants each family's samples together.
    const auto perRlTask = [&](const QByteArray &name, Type type, const QString &help, auto value) {
        w.family(name, type, help);
        for (auto it = in.rl.cbegin(); it != in.rl.cend(); ++it)
            w.add(value(it.value()), {{"task", it.key()}});
    };
    w.family(
        "cohort_hub_rollout_submissions_total", Type::Counter,
        QStringLiteral(
            "Rollout batches submitted since the hub started, by the intake's answer: accepted, or refused (422)."));
    for (auto it = in.rl.cbegin(); it != in.rl.cend(); ++it) {
        w.add(it->submissionsAccepted, {{"task", it.key()}, {"result", QStringLiteral("accepted")}});
        w.add(it->submissionsRefused, {{"task", it.key()}, {"result", QStringLiteral("refused")}});
    }
    w.family("cohort_hub_verifications_total", Type::Counter,
             QStringLiteral(
                 "Accepted batches the trainer verified since the hub started, by verdict: confirmed, or refused."));
    for (auto it = in.rl.cbegin(); it != in.rl.cend(); ++it) {
        w.add(it->verificationsConfirmed, {{"task", it.key()}, {"verdict", QStringLiteral("confirmed")}});
        w.add(it->verificationsRefused, {{"task", it.key()}, {"verdict", QStringLiteral("refused")}});
    }
    perRlTask("cohort_hub_verification_queue_batches", Type::Gauge,
              QStringLiteral("Accepted batches awaiting verification, or at the trainer."),
              [](const RlCoordinator::TaskMetrics &m) { return m.queuedBatches; });
    // Only tasks whose trainer runs here have a step and a readiness; the others' samples are left out.
    perRlTask("cohort_hub_trainer_step", Type::Gauge, QStringLiteral("The trainer's latest optimizer step."),
              [](const RlCoordinator::TaskMetrics &m) {
                  return m.hasTrainer ? std::optional<int>(m.trainerStep) : std::nullopt;
              });
    perRlTask(
        "cohort_hub_trainer_ready", Type::Gauge,
        QStringLiteral(
            "1 when the trainer has published a version and takes batches, 0 while it warms up or after it failed."),
        [](const RlCoordinator::TaskMetrics &m) {
            return m.hasTrainer ? std::optional<int>(m.trainerReady) : std::nullopt;
        });

    w.family("cohort_hub_checkpoint_version", Type::Gauge,
             QStringLiteral("The newest checkpoint version published (SHARDCAST)."));
    for (auto it = in.checkpointVersions.cbegin(); it != in.checkpointVersions.cend(); ++it)
        w.add(it.value(), {{"task", it.key()}});

    const auto perDilocoTask = [&](const QByteArray &name, Type type, const QString &help, auto value) {
        w.family(name, type, help);
        for (auto it = in.diloco.cbegin(); it != in.diloco.cend(); ++it)
            w.add(value(it.value()), {{"task", it.key()}});
    };
    perDilocoTask(
        "cohort_hub_diloco_outer_steps_total", Type::Counter,
        QStringLiteral("DiLoCo outer steps (all-reduces) every ring member completed, since the hub started."),
        [](const DilocoTaskStats &s) { return s.outerSteps; });
    perDilocoTask("cohort_hub_diloco_revision", Type::Gauge,
                  QStringLiteral("The DiLoCo shared-state revision the master last recorded."),
                  [](const DilocoTaskStats &s) { return double(s.recordedRevision); });
    perDilocoTask("cohort_hub_diloco_ring_size", Type::Gauge, QStringLiteral("Members of the DiLoCo ring now."),
                  [](const DilocoTaskStats &s) { return s.ringSize; });
    perDilocoTask("cohort_hub_diloco_excluded_peers_total", Type::Counter,
                  QStringLiteral("Ring members the master excluded (out-of-bound values, a lie, a stall)."),
                  [](const DilocoTaskStats &s) { return s.excludedPeers; });
    w.family("cohort_hub_diloco_audits_total", Type::Counter, QStringLiteral("DiLoCo audits by verdict."));
    for (auto it = in.diloco.cbegin(); it != in.diloco.cend(); ++it) {
        const DilocoTaskStats &s = it.value();
        for (const auto &[verdict, count] :
             {std::pair{"passed", s.auditsPassed}, std::pair{"failed", s.auditsFailed},
              std::pair{"missed", s.auditsMissed}, std::pair{"inconclusive", s.auditsInconclusive}})
            w.add(count, {{"task", it.key()}, {"verdict", QLatin1String(verdict)}});
    }

    const auto perListener = [&](const QByteArray &name, Type type, const QString &help, auto value) {
        w.family(name, type, help);
        for (const HubMetricsInput::Listener &l : in.listeners)
            w.add(value(l), {{"listener", l.name}});
    };
    perListener("cohort_hub_connections_open", Type::Gauge, QStringLiteral("Connections open now."),
                [](const HubMetricsInput::Listener &l) { return l.open; });
    perListener(
        "cohort_hub_connections_refused_total", Type::Counter,
        QStringLiteral(
            "Connections turned away at the connection caps (--max-connections, --max-connections-per-source)."),
        [](const HubMetricsInput::Listener &l) { return l.refused; });
    perListener("cohort_hub_connections_timed_out_total", Type::Counter,
                QStringLiteral("Connections closed at a deadline: a request head or body too slow, or silence."),
                [](const HubMetricsInput::Listener &l) { return l.timedOut; });

    for (const QString &problem : w.problems())
        qCWarning(lcHub) << "metrics:" << problem;
    return w.text();
}

HubMetrics::HubMetrics(const HubService &hub, const HubStore &store, const shardcast::Publisher &publisher)
    : m_hub(hub),
      m_store(store),
      m_publisher(publisher)
{}

HubMetricsInput HubMetrics::collect() const
{
    HubMetricsInput in;
    in.nodes = m_store.nodeCounts(QDateTime::currentMSecsSinceEpoch(), m_hub.onlineWindowMs());
    if (const RlCoordinator *rl = m_hub.rl()) {
        const QHash<QString, RlCoordinator::TaskMetrics> tasks = rl->metrics();
        for (auto it = tasks.cbegin(); it != tasks.cend(); ++it)
            in.rl.insert(it.key(), it.value());
    }
    for (const TaskInfo &task : m_hub.catalogue().tasks()) {
        if (const QList<int> versions = m_publisher.versions(task.id); !versions.isEmpty())
            in.checkpointVersions.insert(task.id, versions.last());
        if (const DilocoTaskStats *stats = m_hub.diloco() ? m_hub.diloco()->stats(task.id) : nullptr)
            in.diloco.insert(task.id, *stats);
    }
    for (const auto &[name, gate] : {std::pair{"api", m_hub.apiGate()}, std::pair{"relay", m_hub.relayGate()}})
        if (gate)
            in.listeners.append(HubMetricsInput::Listener{QLatin1String(name), gate->openConnections(),
                                                          gate->refusedConnections(), gate->timedOutConnections()});
    return in;
}

ApiResponse HubMetrics::handle(const ApiRequest &request)
{
    // Checked before anything is computed: a stranger's request costs a token comparison.
    if (!m_hub.hasOperatorToken())
        return ApiResponse::error(
            403, QStringLiteral("no_operator_token"),
            QStringLiteral("this hub serves its metrics only to its operator; start it with --operator-token-file"));
    if (!m_hub.isOperator(request)) {
        ApiResponse refused =
            ApiResponse::error(401, QStringLiteral("unauthorized"),
                               QStringLiteral("send the operator's token as 'Authorization: Bearer <token>'"));
        refused.headers.append(
            {QByteArrayLiteral("WWW-Authenticate"), QByteArrayLiteral("Bearer realm=\"cohort-hub\"")});
        return refused;
    }
    if (!m_renderedAt.isValid() || m_renderedAt.hasExpired(kRefreshMs)) {
        m_text = renderHubMetrics(collect());
        m_renderedAt.start();
    }
    return ApiResponse::raw(m_text, prometheus::kContentType);
}

} // namespace cohort
