// A stand-in for NVIDIA's NVML (libnvidia-ml.so.1 / nvml.dll) with the functions engine/platform/Nvml.cpp uses, so
// tests drive the real run-time loading path (COHORT_NVML_LIBRARY=<this library>) on machines without a GPU.
//
// What it reports comes from the JSON file named by COHORT_FAKENVML_CONFIG, read again whenever it changes (a test
// can heat a GPU up while the engine runs). No variable or no file: NVML starts and has no GPU.
//   {
//     "errors": {"nvmlInit_v2": 9},                  // optional: a function's return code (here: driver not loaded)
//     "devices": [{
//       "name": "Fake GPU", "uuid": "GPU-…", "utilization_gpu": 87, "utilization_memory": 40,
//       "memory_total": 25769803776, "memory_used": 8589934592, "temperature": 71,
//       "power_mw": 350000, "power_limit_mw": 450000, "sm_clock": 2520, "mem_clock": 10501, "fan": 65,
//       "errors": {"nvmlDeviceGetTemperature": 15},  // optional: this device's calls that fail (here: GPU is lost)
//       "compute_processes": [{"pid": 4242, "used_memory": 1073741824}],  // optional: the processes on this GPU;
//       "graphics_processes": [{"pid": 77}]                                 // no used_memory: NVML cannot tell
//     }]
//   }
// A value left out reads as 0. Built five times (tests/support/fakenvml/CMakeLists.txt): complete, without
// nvmlDeviceGetFanSpeed (FAKENVML_WITHOUT_FAN), without nvmlDeviceGetCount_v2 (FAKENVML_WITHOUT_COUNT), without the
// process lists (FAKENVML_WITHOUT_PROCESSES) and with only their first version (FAKENVML_PROCESSES_V1: two-field
// elements, as drivers before R450 have them; the complete build has _v3 only, with four-field elements).
// fakeNvmlActiveInits() (not NVML's) tells tests whether every nvmlInit_v2 was matched by nvmlShutdown.
#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>

#include <cstdint>
#include <cstring>

#if defined(_WIN32)
#  define FAKENVML_EXPORT extern "C" __declspec(dllexport)
#else
#  define FAKENVML_EXPORT extern "C" __attribute__((visibility("default")))
#endif

namespace {

using Return = int;
struct DeviceOpaque;
using Device = DeviceOpaque *;
constexpr Return kSuccess = 0, kUninitialized = 1, kInvalidArgument = 2, kInsufficientSize = 7;
constexpr unsigned long long kValueNotAvailable = ~0ULL;

struct Utilization {
    unsigned gpu;
    unsigned memory;
};
struct Memory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

QMutex g_mutex;
int g_inits = 0;
QByteArray g_configText;
QJsonObject g_config;

// The configuration now (re-read when the file changed).
QJsonObject config()
{
    const QString path = qEnvironmentVariable("COHORT_FAKENVML_CONFIG");
    QByteArray text;
    if (!path.isEmpty()) {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            text = f.readAll();
    }
    if (text != g_configText) {
        g_configText = text;
        g_config = QJsonDocument::fromJson(text).object();
    }
    return g_config;
}

Return configuredError(const QJsonObject &scope, const char *function)
{
    return scope.value(QStringLiteral("errors")).toObject().value(QLatin1String(function)).toInt(kSuccess);
}

// The device behind a handle, or the error to return for it.
Return device(Device handle, const char *function, QJsonObject *out)
{
    if (g_inits == 0)
        return kUninitialized;
    const QJsonArray devices = config().value(QStringLiteral("devices")).toArray();
    const auto index = qsizetype(reinterpret_cast<std::uintptr_t>(handle)) - 1;
    if (index < 0 || index >= devices.size())
        return kInvalidArgument;
    *out = devices.at(index).toObject();
    return configuredError(*out, function);
}

unsigned number(const QJsonObject &o, const char *key)
{
    return unsigned(o.value(QLatin1String(key)).toDouble());
}

Return text(Device handle, const char *function, const char *key, char *buffer, unsigned length)
{
    QMutexLocker lock(&g_mutex);
    QJsonObject d;
    if (const Return r = device(handle, function, &d); r != kSuccess)
        return r;
    if (!buffer)
        return kInvalidArgument;
    const QByteArray value = d.value(QLatin1String(key)).toString().toUtf8();
    if (unsigned(value.size()) + 1 > length)
        return kInsufficientSize;
    std::memcpy(buffer, value.constData(), size_t(value.size()) + 1);
    return kSuccess;
}

template <typename Fill>
Return read(Device handle, const char *function, Fill fill)
{
    QMutexLocker lock(&g_mutex);
    QJsonObject d;
    if (const Return r = device(handle, function, &d); r != kSuccess)
        return r;
    fill(d);
    return kSuccess;
}

} // namespace

FAKENVML_EXPORT int fakeNvmlActiveInits()
{
    QMutexLocker lock(&g_mutex);
    return g_inits;
}

FAKENVML_EXPORT Return nvmlInit_v2()
{
    QMutexLocker lock(&g_mutex);
    if (const Return r = configuredError(config(), "nvmlInit_v2"); r != kSuccess)
        return r;
    ++g_inits;
    return kSuccess;
}

FAKENVML_EXPORT Return nvmlShutdown()
{
    QMutexLocker lock(&g_mutex);
    if (g_inits == 0)
        return kUninitialized;
    --g_inits;
    return kSuccess;
}

FAKENVML_EXPORT const char *nvmlErrorString(Return r)
{
    switch (r) {
    case 0: return "Success";
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 7: return "Insufficient Size";
    case 9: return "Driver Not Loaded";
    case 15: return "GPU is lost";
    default: return "Unknown Error";
    }
}

#ifndef FAKENVML_WITHOUT_COUNT
FAKENVML_EXPORT Return nvmlDeviceGetCount_v2(unsigned *count)
{
    QMutexLocker lock(&g_mutex);
    if (g_inits == 0)
        return kUninitialized;
    const QJsonObject c = config();
    if (const Return r = configuredError(c, "nvmlDeviceGetCount_v2"); r != kSuccess)
        return r;
    *count = unsigned(c.value(QStringLiteral("devices")).toArray().size());
    return kSuccess;
}
#endif

FAKENVML_EXPORT Return nvmlDeviceGetHandleByIndex_v2(unsigned index, Device *handle)
{
    QMutexLocker lock(&g_mutex);
    if (g_inits == 0)
        return kUninitialized;
    const QJsonArray devices = config().value(QStringLiteral("devices")).toArray();
    if (qsizetype(index) >= devices.size())
        return kInvalidArgument;
    if (const Return r = configuredError(devices.at(index).toObject(), "nvmlDeviceGetHandleByIndex_v2"); r != kSuccess)
        return r;
    *handle = reinterpret_cast<Device>(std::uintptr_t(index) + 1);
    return kSuccess;
}

FAKENVML_EXPORT Return nvmlDeviceGetName(Device handle, char *name, unsigned length)
{
    return text(handle, "nvmlDeviceGetName", "name", name, length);
}

FAKENVML_EXPORT Return nvmlDeviceGetUUID(Device handle, char *uuid, unsigned length)
{
    return text(handle, "nvmlDeviceGetUUID", "uuid", uuid, length);
}

FAKENVML_EXPORT Return nvmlDeviceGetUtilizationRates(Device handle, Utilization *u)
{
    return read(handle, "nvmlDeviceGetUtilizationRates", [u](const QJsonObject &d) {
        u->gpu = number(d, "utilization_gpu");
        u->memory = number(d, "utilization_memory");
    });
}

FAKENVML_EXPORT Return nvmlDeviceGetMemoryInfo(Device handle, Memory *m)
{
    return read(handle, "nvmlDeviceGetMemoryInfo", [m](const QJsonObject &d) {
        m->total = static_cast<unsigned long long>(d.value(QStringLiteral("memory_total")).toDouble());
        m->used = static_cast<unsigned long long>(d.value(QStringLiteral("memory_used")).toDouble());
        m->free = m->total > m->used ? m->total - m->used : 0;
    });
}

FAKENVML_EXPORT Return nvmlDeviceGetTemperature(Device handle, unsigned sensor, unsigned *temp)
{
    if (sensor != 0) // NVML_TEMPERATURE_GPU is the only sensor
        return kInvalidArgument;
    return read(handle, "nvmlDeviceGetTemperature", [temp](const QJsonObject &d) { *temp = number(d, "temperature"); });
}

FAKENVML_EXPORT Return nvmlDeviceGetPowerUsage(Device handle, unsigned *milliwatts)
{
    return read(handle, "nvmlDeviceGetPowerUsage",
                [milliwatts](const QJsonObject &d) { *milliwatts = number(d, "power_mw"); });
}

FAKENVML_EXPORT Return nvmlDeviceGetEnforcedPowerLimit(Device handle, unsigned *milliwatts)
{
    return read(handle, "nvmlDeviceGetEnforcedPowerLimit",
                [milliwatts](const QJsonObject &d) { *milliwatts = number(d, "power_limit_mw"); });
}

FAKENVML_EXPORT Return nvmlDeviceGetClockInfo(Device handle, unsigned type, unsigned *mhz)
{
    if (type != 1 && type != 2) // NVML_CLOCK_SM, NVML_CLOCK_MEM: the ones faked
        return 3;
    return read(handle, "nvmlDeviceGetClockInfo",
                [type, mhz](const QJsonObject &d) { *mhz = number(d, type == 1 ? "sm_clock" : "mem_clock"); });
}

#ifndef FAKENVML_WITHOUT_FAN
FAKENVML_EXPORT Return nvmlDeviceGetFanSpeed(Device handle, unsigned *percent)
{
    return read(handle, "nvmlDeviceGetFanSpeed", [percent](const QJsonObject &d) { *percent = number(d, "fan"); });
}
#endif

#ifndef FAKENVML_WITHOUT_PROCESSES
namespace {
struct ProcessInfoV1 { // nvmlProcessInfo_v1_t
    unsigned pid;
    unsigned long long usedGpuMemory;
};
struct ProcessInfo { // nvmlProcessInfo_t (_v2, _v3)
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};

// NVML's contract: room for *count elements; too few answers kInsufficientSize with the count needed.
template <typename Info>
Return processes(Device handle, const char *function, const char *key, unsigned *count, Info *infos)
{
    QMutexLocker lock(&g_mutex);
    QJsonObject d;
    if (const Return r = device(handle, function, &d); r != kSuccess)
        return r;
    if (!count)
        return kInvalidArgument;
    const QJsonArray list = d.value(QLatin1String(key)).toArray();
    if (*count < unsigned(list.size()) || (!infos && !list.isEmpty())) {
        *count = unsigned(list.size());
        return kInsufficientSize;
    }
    *count = unsigned(list.size());
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject p = list.at(i).toObject();
        Info info{};
        info.pid = unsigned(p.value(QStringLiteral("pid")).toDouble());
        const QJsonValue used = p.value(QStringLiteral("used_memory"));
        info.usedGpuMemory = used.isDouble() ? static_cast<unsigned long long>(used.toDouble()) : kValueNotAvailable;
        infos[i] = info;
    }
    return kSuccess;
}
} // namespace

#  ifdef FAKENVML_PROCESSES_V1
FAKENVML_EXPORT Return nvmlDeviceGetComputeRunningProcesses(Device handle, unsigned *count, ProcessInfoV1 *infos)
{
    return processes(handle, "nvmlDeviceGetComputeRunningProcesses", "compute_processes", count, infos);
}

FAKENVML_EXPORT Return nvmlDeviceGetGraphicsRunningProcesses(Device handle, unsigned *count, ProcessInfoV1 *infos)
{
    return processes(handle, "nvmlDeviceGetGraphicsRunningProcesses", "graphics_processes", count, infos);
}
#  else
FAKENVML_EXPORT Return nvmlDeviceGetComputeRunningProcesses_v3(Device handle, unsigned *count, ProcessInfo *infos)
{
    return processes(handle, "nvmlDeviceGetComputeRunningProcesses_v3", "compute_processes", count, infos);
}

FAKENVML_EXPORT Return nvmlDeviceGetGraphicsRunningProcesses_v3(Device handle, unsigned *count, ProcessInfo *infos)
{
    return processes(handle, "nvmlDeviceGetGraphicsRunningProcesses_v3", "graphics_processes", count, infos);
}
#  endif
#endif
