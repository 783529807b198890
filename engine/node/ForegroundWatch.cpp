#include "node/ForegroundWatch.h"

#include "core/Logging.h"

#include <QCoreApplication>
#include <algorithm>

namespace cohort {

namespace {
constexpr EventCategory kCategory = EventCategory::Schedule;

bool due(const QElapsedTimer &since, int intervalMs)
{
    return !since.isValid() || since.elapsed() >= intervalMs;
}
} // namespace

ForegroundWatch::ForegroundWatch(GpuProcessReader gpuProcesses, QString display, int programIntervalMs)
    : m_gpuProcesses(std::move(gpuProcesses)),
      m_display(std::move(display)),
      m_programs(programIntervalMs)
{}

void ForegroundWatch::setPolicy(const SchedulerPolicy &policy)
{
    // A rule switched on again is looked at afresh, and says again if it cannot work here.
    if (policy.pauseWhenFullscreen && !m_policy.pauseWhenFullscreen) {
        m_fullscreenToldMissing = false;
        m_sinceFullscreenTry.invalidate();
        m_sinceFullscreenRead.invalidate();
    }
    if (!policy.pauseWhenFullscreen) {
        m_fullscreen.reset(); // an X11 connection held for nothing
        m_lastFullscreen.reset();
    }
    if (policy.pauseWhenGpuBusy && !m_policy.pauseWhenGpuBusy) {
        m_gpuToldMissing = false;
        m_sinceGpuRead.invalidate();
    }
    if (!policy.pauseWhenGpuBusy) {
        m_lastGpuUser.reset();
        m_gpusInUse.clear();
    }
    m_programs.setNames(policy.pauseForPrograms);
    m_policy = policy;
}

QList<ForegroundUse> ForegroundWatch::read()
{
    QList<ForegroundUse> uses;
    if (m_policy.pauseWhenFullscreen)
        if (const auto use = fullscreenUse())
            uses.append(*use);
    if (const std::optional<RunningProgram> program = m_programs.running())
        uses.append(ForegroundUse{ForegroundUse::Kind::NamedProgram, program->name});
    if (m_policy.pauseWhenGpuBusy)
        if (const auto use = gpuUse())
            uses.append(*use);
    return uses;
}

std::optional<ForegroundUse> ForegroundWatch::fullscreenUse()
{
    if (!m_fullscreen && due(m_sinceFullscreenTry, kRetrySourceMs)) {
        m_sinceFullscreenTry.start();
        m_fullscreen = createFullscreenWatch(m_display);
        if (m_fullscreen) {
            m_events.append(EngineEvent::info(
                kCategory, QStringLiteral("Full-screen programs seen through %1").arg(m_fullscreen->source())));
            m_fullscreenToldMissing = false;
        } else if (!m_fullscreenToldMissing) {
            m_fullscreenToldMissing = true;
            m_events.append(EngineEvent::warning(
                kCategory,
                QStringLiteral("\"Pause while a program runs full screen\" is on, but this session cannot tell "
                               "(no X11 display: a server, or Wayland without XWayland); it is ignored")));
        }
    }
    if (m_fullscreen && due(m_sinceFullscreenRead, kFullscreenIntervalMs)) {
        m_sinceFullscreenRead.start();
        m_lastFullscreen = m_fullscreen->read(); // unknown for now (the X server went away): no pause
    }
    if (!m_lastFullscreen || !m_lastFullscreen->fullScreen)
        return std::nullopt;
    return ForegroundUse{ForegroundUse::Kind::FullScreen, m_lastFullscreen->program};
}

std::optional<ForegroundUse> ForegroundWatch::gpuUse()
{
    if (!m_gpuProcesses || !due(m_sinceGpuRead, kGpuIntervalMs))
        return m_lastGpuUser;
    m_sinceGpuRead.start();
    const Expected<QList<GpuProcess>> processes = m_gpuProcesses();
    if (!processes) {
        if (!m_gpuToldMissing) {
            m_gpuToldMissing = true;
            m_events.append(EngineEvent::warning(
                kCategory,
                QStringLiteral("\"Pause while another program uses the GPU\" is on, but the programs on the GPU "
                               "cannot be listed (%1); it is ignored")
                    .arg(processes.error())));
        }
        m_lastGpuUser.reset();
        m_gpusInUse.clear();
        return std::nullopt;
    }
    const QMap<int, QString> users = otherGpuUsers(*processes, QCoreApplication::applicationPid());
    m_gpusInUse.clear();
    const bool aWorkerGpuIsFree =
        std::any_of(m_workerGpus.cbegin(), m_workerGpus.cend(), [&users](int gpu) { return !users.contains(gpu); });
    if (aWorkerGpuIsFree) {
        // The node works on: only the workers on GPUs another program uses stop (a game on GPU 0, Cohort on 0 and 1).
        for (int gpu : m_workerGpus)
            if (users.contains(gpu))
                m_gpusInUse.insert(gpu, users.value(gpu));
        m_lastGpuUser.reset();
    } else {
        // Computing on the CPU, or every worker's GPU is in use: the node pauses, as on a one-GPU machine.
        m_lastGpuUser =
            users.isEmpty() ? std::nullopt : std::optional(ForegroundUse{ForegroundUse::Kind::GpuUser, users.first()});
    }
    return m_lastGpuUser;
}

std::optional<ForegroundUse> ForegroundWatch::otherGpuUser(const QList<GpuProcess> &processes, qint64 selfPid,
                                                           const NameOf &nameOf)
{
    const QMap<int, QString> users = otherGpuUsers(processes, selfPid, nameOf);
    if (users.isEmpty())
        return std::nullopt;
    // The first in NVML's list order (compute processes first), as before there was a worker per GPU.
    for (const GpuProcess &p : processes)
        if (users.contains(p.gpuIndex))
            return ForegroundUse{ForegroundUse::Kind::GpuUser, users.value(p.gpuIndex)};
    return std::nullopt;
}

QMap<int, QString> ForegroundWatch::otherGpuUsers(const QList<GpuProcess> &processes, qint64 selfPid,
                                                  const NameOf &nameOf)
{
    QMap<int, QString> users;
    for (const GpuProcess &p : processes) {
        if (users.contains(p.gpuIndex))
            continue;
        if (p.pid == selfPid || p.pid <= 0)
            continue;
        if (p.graphics && p.usedMemoryBytes < kGraphicsBusyBytes) // unknown (-1) included
            continue;
        const QString name = nameOf(p.pid);
        if (name.isEmpty())
            continue;
        qCDebug(lcEngine) << "another program on GPU" << p.gpuIndex << ":" << name << p.pid
                          << (p.graphics ? "graphics" : "compute") << p.usedMemoryBytes;
        users.insert(p.gpuIndex, name);
    }
    return users;
}

} // namespace cohort
