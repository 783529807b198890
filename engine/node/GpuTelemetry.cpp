#include "node/GpuTelemetry.h"

#include "core/Logging.h"
#include "platform/Nvml.h"
#include "store/GpuHistoryStore.h"

#include <QFile>

namespace cohort {

namespace {
constexpr EventCategory kCategory = EventCategory::Gpu;
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
            m_note = QStringLiteral("This NVML lacks %1; those readings are unknown")
                         .arg(missing.join(QStringLiteral(", ")));
            m_events.append(EngineEvent::warning(kCategory, m_note));
        }
    }
    qCInfo(lcEngine) << "GPU telemetry:" << (m_nvml ? m_nvml->driverSummary() : m_note);
    // No GPU: nothing new to keep, but what earlier runs stored is still read for the views; a database that is not
    // there is not made for that.
    if (databasePath.isEmpty() || (!m_nvml && !QFile::exists(databasePath)))
        return;

    auto opened = GpuHistoryStore::open(databasePath);
    if (!opened) {
        const QString what =
            m_nvml ? QStringLiteral("GPU history is not kept: %1") : QStringLiteral("GPU history cannot be read: %1");
        m_events.append(EngineEvent::warning(kCategory, what.arg(opened.error())));
        return;
    }
    m_store = std::move(opened).value();
    if (m_nvml)
        prune(now); // without a GPU, earlier history stays on disk until one is back
    auto stored = m_store->load(now - GpuHistory::kTiers[int(GpuHistoryRange::OneDay)].spanSeconds);
    if (!stored) {
        m_events.append(EngineEvent::warning(kCategory, stored.error()));
        return;
    }
    m_history.seed(*stored);
    m_storedMinutes = std::move(stored).value();
}

GpuTelemetry::~GpuTelemetry()
{
    if (m_store && m_nvml) // without NVML the database is only read
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

Expected<EnergyUse> GpuTelemetry::energy(const QStringList &gpuUuids, qint64 now) const
{
    if (!m_store)
        return EnergyUse{}; // nothing stored: no readings, which the page tells apart from 0 Wh
    const auto minutes = m_store->load(now - qint64(GpuHistoryStore::kKeepDays) * 24 * 3600);
    if (!minutes)
        return fail(minutes.error());
    const qint64 todayStart = now - now % (24 * 3600); // 00:00 UTC, the ledger's "today" (epoch days are UTC days)
    return energyUse(*minutes, gpuUuids, now, todayStart);
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
