#pragma once
// The engine's side of "pause when I play": it asks the sources the scheduler policy switches on (the full-screen
// window, the running programs, the processes on the GPUs), each at a bounded rate, and says what they see as
// ForegroundUse values, most telling first: full screen, a listed program, the GPU. A source opens when its rule is
// switched on. Whether that pauses, and the hold before work resumes, is the Scheduler's business.
#include "core/EngineEvent.h"
#include "core/Expected.h"
#include "core/NodeState.h"
#include "core/Scheduler.h"
#include "platform/FullscreenWindow.h"
#include "platform/Nvml.h"
#include "platform/ProcessList.h"

#include <QElapsedTimer>
#include <QMap>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace cohort {

class ForegroundWatch {
public:
    using GpuProcessReader = std::function<Expected<QList<GpuProcess>>()>;
    using NameOf = std::function<QString(qint64)>;
    static constexpr int kFullscreenIntervalMs = 1000;
    static constexpr int kGpuIntervalMs = 2000;
    static constexpr int kRetrySourceMs = 60'000; // a session without X11 may get one (a login after the start)
    static constexpr qint64 kGraphicsBusyBytes = 1LL << 30;

    // gpuProcesses: what NVML lists (GpuTelemetry); display: the X11 display to watch, empty for $DISPLAY.
    explicit ForegroundWatch(GpuProcessReader gpuProcesses, QString display = {},
                             int programIntervalMs = ProgramWatch::kDefaultIntervalMs);

    void setPolicy(const SchedulerPolicy &policy);
    // The GPUs Cohort's workers compute on (NVML indices); empty: it computes on the CPU. While a worker's GPU is
    // free of other programs, another program on a GPU does not pause the node: it pauses the worker on that GPU
    // (gpusInUse), or nothing when no worker is there.
    void setWorkerGpus(const QList<int> &nvmlIndexes) { m_workerGpus = nvmlIndexes; }
    QList<ForegroundUse> read();
    // The worker GPUs another program uses now (NVML index -> its name), while the node works on with the others.
    const QMap<int, QString> &gpusInUse() const { return m_gpusInUse; }
    // What the activity log should hear: a rule that cannot work here (once per switching it on), the sources used.
    QList<EngineEvent> takeEvents() { return std::exchange(m_events, {}); }

    // Another program on a GPU: any compute process other than this one, or a graphics process holding at least
    // kGraphicsBusyBytes (a game; the desktop's compositor and a browser hold less, and are always there). A process
    // whose name cannot be read is left out: in a container NVML lists the host's process ids, this one's included.
    static std::optional<ForegroundUse> otherGpuUser(const QList<GpuProcess> &processes, qint64 selfPid,
                                                     const NameOf &nameOf = processName);
    // The same for every GPU: NVML index -> the first such program's name.
    static QMap<int, QString> otherGpuUsers(const QList<GpuProcess> &processes, qint64 selfPid,
                                            const NameOf &nameOf = processName);

private:
    std::optional<ForegroundUse> fullscreenUse();
    std::optional<ForegroundUse> gpuUse();

    GpuProcessReader m_gpuProcesses;
    QString m_display;
    SchedulerPolicy m_policy;
    QList<EngineEvent> m_events;

    std::unique_ptr<FullscreenWatch> m_fullscreen;
    QElapsedTimer m_sinceFullscreenTry; // since the last attempt to open a source
    QElapsedTimer m_sinceFullscreenRead;
    std::optional<FullscreenState> m_lastFullscreen;
    bool m_fullscreenToldMissing = false;

    ProgramWatch m_programs;

    QElapsedTimer m_sinceGpuRead;
    std::optional<ForegroundUse> m_lastGpuUser;
    QList<int> m_workerGpus;
    QMap<int, QString> m_gpusInUse;
    bool m_gpuToldMissing = false;
};

} // namespace cohort
