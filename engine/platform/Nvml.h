#pragma once
// NVIDIA's management library (NVML), loaded at run time: libnvidia-ml.so.1 on Linux, nvml.dll on Windows. Nothing
// links against it and the build needs no NVML header: the few functions used are declared in Nvml.cpp. Machines
// without an NVIDIA driver simply get no GPU readings, said plainly.
//
// Functions the loader cannot do without (nvmlInit_v2, nvmlShutdown, nvmlErrorString, nvmlDeviceGetCount_v2,
// nvmlDeviceGetHandleByIndex_v2): open() fails with an error naming the one missing. The per-value functions (name,
// UUID, utilization, memory, temperature, power, power limit, clocks, fan): a library without one still opens, that
// value stays unknown on every GPU and missingFunctions() names it. A call that fails on one GPU leaves that value
// unknown in that reading, with NVML's error text in GpuSample::notes.
//
// The processes on the GPUs (nvmlDeviceGetComputeRunningProcesses / ...GraphicsRunningProcesses, _v3, _v2 or the
// first version, whichever the driver has) are optional too: without them processes() says so.
//
// COHORT_NVML_LIBRARY=<path> loads another library instead (the tests' fake NVML).
#include "core/EngineSnapshot.h"
#include "core/Expected.h"

#include <QStringList>
#include <memory>
#include <vector>

namespace cohort {

// A process with a context on a GPU (what nvidia-smi lists under "Processes").
struct GpuProcess {
    int gpuIndex = 0;
    qint64 pid = 0;
    bool graphics = false;       // a graphics (rendering) context; false: compute (CUDA, OpenCL)
    qint64 usedMemoryBytes = -1; // -1: NVML cannot tell (as on Windows' WDDM driver model)
    bool operator==(const GpuProcess &) const = default;
};

class Nvml {
public:
    static constexpr const char *kLibraryEnv = "COHORT_NVML_LIBRARY";

    // The library open() loads by default: COHORT_NVML_LIBRARY if set, else the driver's.
    static QString defaultLibrary();
    // Loads the library, resolves the functions, calls nvmlInit_v2 and finds the GPUs (their handles, names and
    // UUIDs are read once). The error says what is missing, in words for people.
    static Expected<std::unique_ptr<Nvml>> open(const QString &library = defaultLibrary());
    ~Nvml(); // nvmlShutdown
    Nvml(const Nvml &) = delete;
    Nvml &operator=(const Nvml &) = delete;

    QString libraryPath() const; // the file actually loaded
    int deviceCount() const;
    QStringList missingFunctions() const; // optional functions this NVML lacks (their values stay unknown)
    QString driverSummary() const;        // "2 GPUs via NVML (libnvidia-ml.so.1): NVIDIA GeForce RTX 4090, …"

    // One reading of every GPU, in NVML's index order. Never fails as a whole: what could not be read is unknown.
    QList<GpuSample> sample();
    // Every process on every GPU, compute first; at most kMaxProcessesPerGpu of each kind per GPU. An error when this
    // NVML cannot list processes at all; a GPU that fails to answer is left out.
    static constexpr unsigned kMaxProcessesPerGpu = 256;
    Expected<QList<GpuProcess>> processes();

    struct Api;    // the resolved functions (Nvml.cpp)
    struct Device; // a handle and what is read once

private:
    Nvml();
    std::unique_ptr<Api> m_api;
    std::vector<Device> m_devices;
    QStringList m_missing;
};

} // namespace cohort
