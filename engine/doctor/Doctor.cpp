#include "doctor/Doctor.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "net/Tls.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QTimer>

#include <algorithm>

namespace cohort {

namespace {
// The order findings are shown in: what stops Cohort altogether first.
const QStringList kOrder{QStringLiteral("hub"),         QStringLiteral("clock"), QStringLiteral("inbound"),
                         QStringLiteral("data-folder"), QStringLiteral("disk"),  QStringLiteral("memory"),
                         QStringLiteral("blas"),        QStringLiteral("gpu"),   QStringLiteral("tray")};
} // namespace

DoctorOptions DoctorOptions::fromEnvironment(EngineOptions engine)
{
    DoctorOptions options;
    options.engine = std::move(engine);
    bool ok = false;
    if (const qint64 offset = qEnvironmentVariable("COHORT_TESTING_CLOCK_OFFSET_MS").toLongLong(&ok); ok)
        options.clockOffsetMs = offset;
    if (const int port = qEnvironmentVariableIntValue("COHORT_TESTING_PROBE_PORT", &ok); ok && port > 0 && port < 65536)
        options.probePortOverride = quint16(port);
    return options;
}

Doctor::Doctor(DoctorOptions options, QObject *parent)
    : QObject(parent),
      m_options(std::move(options))
{}

Doctor::~Doctor() = default;

void Doctor::add(const QString &id, const QString &title, DoctorOutcome outcome, const QString &detail,
                 const QString &fix)
{
    m_report.findings.append({id, title, outcome, detail, fix});
}

void Doctor::start()
{
    checkDataFolder();
    checkBlas();
    checkGpu();
    checkTray();
    if (hubUrl().isEmpty()) {
        const QString local = tr("no hub is configured: the embedded local network runs on this computer");
        add(QStringLiteral("hub"), tr("Hub reachable, its key pinned"), DoctorOutcome::Skipped, local);
        add(QStringLiteral("clock"), tr("Clock"), DoctorOutcome::Skipped, local);
        add(QStringLiteral("inbound"), tr("Reachable by peers (DiLoCo)"), DoctorOutcome::Skipped, local);
        QFile catalogue(QStringLiteral(":/cohort/hub/default-tasks.json"));
        auto json = catalogue.open(QIODevice::ReadOnly) ? parseJsonObject(catalogue.readAll())
                                                        : Expected<QJsonObject>(fail(catalogue.errorString()));
        auto tasks = json ? parseTaskList(*json, UnknownKinds::Keep) : Expected<QList<TaskInfo>>(fail(json.error()));
        if (tasks)
            chooseTask(*tasks);
        else
            checkTaskNeeds(std::nullopt, tr("the local network's task list cannot be read (%1)").arg(tasks.error()));
    } else {
        m_network = new QNetworkAccessManager(this);
        if (!m_options.engine.hubCertificateFile.isEmpty())
            if (Status trusted = trustHubCertificates(m_options.engine.hubCertificateFile); !trusted)
                qCWarning(lcNet) << "doctor: the hub certificate cannot be used:" << trusted.error();
        askHealth();
        askTasks();
        probeInbound();
    }
    maybeFinish();
}

void Doctor::chooseTask(const QList<TaskInfo> &tasks)
{
    const QString named = m_options.engine.taskId;
    const TaskInfo *task = nullptr;
    if (TaskInfo::isValidId(named)) {
        const auto it =
            std::find_if(tasks.cbegin(), tasks.cend(), [&named](const TaskInfo &t) { return t.id == named; });
        if (it == tasks.cend()) {
            checkTaskNeeds(std::nullopt, tr("the hub offers no task '%1'").arg(named));
            return;
        }
        task = &*it;
    } else {
        const auto it =
            std::find_if(tasks.cbegin(), tasks.cend(), [](const TaskInfo &t) { return t.isRunnableKind(); });
        if (it == tasks.cend()) {
            checkTaskNeeds(std::nullopt, tr("the hub offers no task this version can run"));
            return;
        }
        task = &*it;
    }
    m_taskKind = task->kind;
    checkTaskNeeds(*task, {});
}

void Doctor::maybeFinish()
{
    if (m_finished || m_pending > 0 || (m_probeListener && !m_inboundSettled))
        return;
    m_finished = true;
    std::stable_sort(m_report.findings.begin(), m_report.findings.end(),
                     [](const DoctorFinding &a, const DoctorFinding &b) {
                         const auto rank = [](const QString &id) {
                             const qsizetype at = kOrder.indexOf(id);
                             return at < 0 ? kOrder.size() : at;
                         };
                         return rank(a.id) < rank(b.id);
                     });
    // Queued: a caller that connects after start() (or starts from a slot) still hears it.
    QTimer::singleShot(0, this, [this] { Q_EMIT finished(m_report); });
}

} // namespace cohort
