#include "node/GpuTelemetry.h"

#include "core/Logging.h"
#include "platform/Nvml.h"
#include "store/GpuHistoryStore.h"

namespace cohort {

namespace {
const QString kCategory = QStringLiteral("gpu");
const QString kCpuOnly = QStringLiteral(": CPU and memory only");
} // namespace

GpuTelemetry::GpuTelemetry(const QString &nvmlLibrary, const QString &databasePath, qint64 now)
{
    auto nvml = Nvml::open(nvmlLibrary);
    if (!nvml) {
        m_note = nvml.error() + kCpuOnly;
        m_events.append(EngineEvent::info(kCategory, m_note));
    } else if ((*nvml)->deviceCount() == 0) {
        m_note = QStringLiteral("NVML sees no GPU") + kCpuOnly;
        m_events.append(EngineEvent::info(kCategory, m_note));
    } else {
        m_nvml = std::move(nvml).value();
        m_events.append(EngineEvent::info(kCategory, m_nvml->driverSummary()));
        if (const QStringList missing = m_nvml->missingFunctions(); !missing.isEmpty()) {
            m_note = QStringLiteral("This NVML lacks %1; those readings are unknown").arg(missing.join(QStringLiteral(", ")));
            m_events.append(EngineEvent::warning(kCategory, m_note));
        }
    }
    qCInfo(lcEngine) << "GPU telemetry:" << (m_nvml ? m_nvml->driverSummary() : m_note);
    if (!m_nvml || databasePath.isEmpty())
        return; // no GPU: nothing to keep (earlier history stays on disk until a GPU is back)

    auto opened = GpuHistoryStore::open(databasePath);
    if (!opened) {
        m_events.append(EngineEvent::warning(kCategory, QStringLiteral("GPU history is not kept: %1").arg(opened.error())));
        return;
    }
    m_store = std::move(opened).value();
    prune(now);
    const auto stored = m_store->load(now - GpuHistory::kTiers[int(GpuHistoryRange::OneDay)].spanSeconds);
    if (stored)
        m_history.seed(*stored);
    else
        m_events.append(EngineEvent::warning(kCategory, stored.error()));
}

GpuTelemetry::~GpuTelemetry()
{
    if (m_store)
        store(m_history.openMinutes());
}

QList<GpuSample> GpuTelemetry::sample(qint64 now)
{
    if (!m_nvml)
        return {};
    QList<GpuSample> gpus = m_nvml->sample();
    store(m_history.add(gpus, now));
    if (now - m_lastPrune >= kPruneEverySeconds)
        prune(now);
    return gpus;
}

Expected<QList<GpuProcess>> GpuTelemetry::processes()
{
    if (!m_nvml)
        return fail(m_note.isEmpty() ? QStringLiteral("no NVML") : m_note);
    return m_nvml->processes();
}

QList<EngineEvent> GpuTelemetry::takeEvents()
{
    return std::exchange(m_events, {});
}

void GpuTelemetry::store(const QList<GpuHistoryRecord> &minutes)
{
    if (!m_store || minutes.isEmpty())
        return;
    if (Status saved = m_store->save(minutes); !saved && !m_storeFailed) {
        m_storeFailed = true;
        m_events.append(EngineEvent::warning(kCategory, saved.error()));
    } else if (saved) {
        m_storeFailed = false;
    }
}

void GpuTelemetry::prune(qint64 now)
{
    m_lastPrune = now;
    if (!m_store)
        return;
    if (auto pruned = m_store->prune(now); !pruned)
        m_events.append(EngineEvent::warning(kCategory, pruned.error()));
}

} // namespace cohort
