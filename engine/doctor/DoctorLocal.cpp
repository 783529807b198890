// The doctor's checks that need no network: the data folder, disk and memory for the task, BLAS, GPU, tray host.
#include "doctor/Doctor.h"

#include "core/Logging.h"
#include "ml/TorchRuntime.h"
#include "platform/DiskSpace.h"
#include "platform/LoadedLibraries.h"
#include "platform/Nvml.h"
#include "platform/SystemSampler.h"
#include "platform/TrayHost.h"

#include <QDir>
#include <QFile>
#include <QLocale>
#include <QSaveFile>
#include <QUuid>

namespace cohort {

namespace {
QString megabytes(qint64 mb)
{
    return mb >= 1024 ? QStringLiteral("%1 GB").arg(double(mb) / 1024, 0, 'f', 1) : QStringLiteral("%1 MB").arg(mb);
}

QString bytesText(qint64 bytes)
{
    return megabytes(bytes / (1024 * 1024));
}

// The reference BLAS measured about 8x slower than OpenBLAS here (README); below this a product of 512 x 512 floats
// is slow whatever library did it.
constexpr double kSlowGflops = 5.0;
} // namespace

void Doctor::checkDataFolder()
{
    const QString title = tr("Data folder writable");
    const QString folder = QDir::toNativeSeparators(m_options.engine.dataDir);
    const QString fix = tr("Make the folder writable for this user, or choose another data folder (Settings › General, "
                           "cohortd --data-dir).");
    if (!QDir().mkpath(m_options.engine.dataDir)) {
        add(QStringLiteral("data-folder"), title, DoctorOutcome::Failed, tr("%1 cannot be created").arg(folder), fix);
        return;
    }
    // Written the way Cohort writes everything that must survive a crash: a temporary file renamed into place.
    const QString probe = QDir(m_options.engine.dataDir)
                              .filePath(QStringLiteral(".doctor-%1").arg(QUuid::createUuid().toString(QUuid::Id128)));
    QSaveFile file(probe);
    const bool written = file.open(QIODevice::WriteOnly) && file.write("cohort doctor\n") == 14 && file.commit();
    const QString error = file.errorString();
    QFile::remove(probe);
    if (!written) {
        add(QStringLiteral("data-folder"), title, DoctorOutcome::Failed,
            tr("%1 is not writable: %2").arg(folder, error), fix);
        return;
    }
    add(QStringLiteral("data-folder"), title, DoctorOutcome::Ok, tr("%1 is writable").arg(folder));
}

void Doctor::checkTaskNeeds(const std::optional<TaskInfo> &task, const QString &whyNoTask)
{
    const QString diskTitle = tr("Free disk for the task");
    const QString memoryTitle = tr("Memory for the task");
    if (!task) {
        add(QStringLiteral("disk"), diskTitle, DoctorOutcome::Skipped, whyNoTask);
        add(QStringLiteral("memory"), memoryTitle, DoctorOutcome::Skipped, whyNoTask);
        return;
    }
    const QString folder = QDir::toNativeSeparators(m_options.engine.dataDir);
    const qint64 needMb = task->requirements.diskMb;
    if (const Expected<qint64> free = availableDiskBytes(m_options.engine.dataDir); !free) {
        add(QStringLiteral("disk"), diskTitle, DoctorOutcome::Failed,
            tr("the free space of %1 cannot be told (%2): Cohort refuses downloads it cannot fit")
                .arg(folder, free.error()),
            tr("Put the data folder on an ordinary local disk (Settings › General, cohortd --data-dir)."));
    } else {
        const qint64 freeMb = *free / (1024 * 1024);
        const QString seen =
            tr("%1 free in %2; task %3 needs %4").arg(bytesText(*free), folder, task->id, megabytes(needMb));
        if (freeMb < needMb)
            add(QStringLiteral("disk"), diskTitle, DoctorOutcome::Failed, seen,
                tr("Free %1 on that disk, or move the data folder to a larger one (Settings › General, cohortd "
                   "--data-dir).")
                    .arg(megabytes(needMb - freeMb)));
        else if (freeMb < 2 * needMb)
            add(QStringLiteral("disk"), diskTitle, DoctorOutcome::Warning, seen,
                tr("Less than twice what the task needs is free: a new checkpoint version is downloaded beside the old "
                   "one."));
        else
            add(QStringLiteral("disk"), diskTitle, DoctorOutcome::Ok, seen);
    }

    const SystemSample system = createSystemSampler()->sample();
    const qint64 totalMb = system.memTotalBytes / (1024 * 1024);
    const qint64 ramMb = task->requirements.minRamMb;
    if (totalMb <= 0)
        add(QStringLiteral("memory"), memoryTitle, DoctorOutcome::Warning, tr("this computer's memory cannot be read"),
            tr("Task %1 needs %2; make sure this computer has it.").arg(task->id, megabytes(ramMb)));
    else if (totalMb < ramMb)
        add(QStringLiteral("memory"), memoryTitle, DoctorOutcome::Failed,
            tr("task %1 needs %2 of memory; this computer has %3").arg(task->id, megabytes(ramMb), megabytes(totalMb)),
            tr("Choose a smaller task on the Tasks page (cohortd --task), or run Cohort on a computer with more "
               "memory."));
    else
        add(QStringLiteral("memory"), memoryTitle, DoctorOutcome::Ok,
            tr("task %1 needs %2; this computer has %3").arg(task->id, megabytes(ramMb), megabytes(totalMb)));
}

void Doctor::checkBlas()
{
    const QString title = tr("Fast matrix library (BLAS)");
    bool reference = false;
    // The library sgemm_ resolves to is the one products run on; without it (no BLAS symbols exported: LibTorch with
    // MKL inside, as on Windows) the loaded libraries' names are all there is.
    const QString provider = libraryDefining("sgemm_");
    const QString blas = describeBlas(provider.isEmpty() ? loadedLibraries(QStringLiteral("blas")) +
                                                               loadedLibraries(QStringLiteral("mkl"))
                                                         : QStringList{provider},
                                      &reference);
    std::string error;
    const double gflops = ml::measureMatmulGflops(512, 7, &error);
    const QString measured = gflops > 0
                                 ? tr("a 512 × 512 matrix product runs at %1 GFLOP/s").arg(gflops, 0, 'f', 1)
                                 : tr("LibTorch could not multiply matrices (%1)").arg(QString::fromStdString(error));
    const QString fix = tr("Install OpenBLAS: sudo apt install libopenblas0-openmp (Debian's LibTorch then uses it; "
                           "the reference BLAS is about 8 times slower).");
    if (gflops <= 0)
        add(QStringLiteral("blas"), title, DoctorOutcome::Failed, measured,
            tr("Reinstall LibTorch (sudo apt install --reinstall libtorch1.13)."));
    else if (reference)
        add(QStringLiteral("blas"), title, DoctorOutcome::Failed, tr("LibTorch runs on %1: %2").arg(blas, measured),
            fix);
    else if (gflops < kSlowGflops)
        add(QStringLiteral("blas"), title, DoctorOutcome::Warning,
            tr("%1: %2").arg(blas.isEmpty() ? tr("LibTorch's own BLAS") : blas, measured),
            tr("Matrix products are slow here: check that no other program keeps every core busy, and that OpenBLAS "
               "is installed (sudo apt install libopenblas0-openmp)."));
    else
        add(QStringLiteral("blas"), title, DoctorOutcome::Ok,
            tr("%1: %2").arg(blas.isEmpty() ? tr("LibTorch's own BLAS") : blas, measured));
}

void Doctor::checkGpu()
{
    const QString title = tr("GPU driver and LibTorch");
    const ml::TorchRuntimeInfo torch = ml::torchRuntimeInfo();
    const QString torchText = torch.cudaAvailable
                                  ? tr("LibTorch %1 sees %2 CUDA device(s)")
                                        .arg(QString::fromStdString(torch.version))
                                        .arg(torch.cudaDeviceCount)
                                  : tr("LibTorch %1 is CPU-only").arg(QString::fromStdString(torch.version));
    auto nvml = Nvml::open();
    if (!nvml) {
        if (torch.cudaAvailable)
            add(QStringLiteral("gpu"), title, DoctorOutcome::Warning,
                tr("%1, but NVML did not load (%2): no GPU telemetry").arg(torchText, nvml.error()),
                tr("Install the NVIDIA driver's management library (Debian: libnvidia-ml1)."));
        else
            add(QStringLiteral("gpu"), title, DoctorOutcome::Skipped,
                tr("no NVIDIA GPU found (%1); Cohort computes on the CPU").arg(nvml.error()));
        return;
    }
    const QString driver = (*nvml)->driverSummary();
    if ((*nvml)->deviceCount() > 0 && !torch.cudaAvailable) {
        add(QStringLiteral("gpu"), title, DoctorOutcome::Warning,
            tr("%1, but %2: the GPU is not used for compute").arg(driver, torchText),
            tr("Install a CUDA build of LibTorch that matches the driver (README › Windows / CUDA), or keep computing "
               "on the CPU."));
        return;
    }
    add(QStringLiteral("gpu"), title, DoctorOutcome::Ok, tr("%1; %2").arg(driver, torchText));
}

void Doctor::checkTray()
{
    const QString title = tr("Tray icon host");
    QString how;
    const std::optional<bool> present = trayHostPresent(&how);
    if (!present)
        add(QStringLiteral("tray"), title, DoctorOutcome::Skipped,
            tr("no desktop session (a server needs no tray icon)"));
    else if (*present)
        add(QStringLiteral("tray"), title, DoctorOutcome::Ok, tr("the desktop shows tray icons (%1)").arg(how));
    else
        add(QStringLiteral("tray"), title, DoctorOutcome::Warning,
            tr("no tray icon host found (%1): Cohort's icon will not show").arg(how),
            tr("On GNOME, install the AppIndicator extension (sudo apt install gnome-shell-extension-appindicator) and "
               "log in again; "
               "the window stays reachable from the applications menu."));
}

} // namespace cohort
