#include "platform/Nvml.h"

#include <QDir>
#include <QFileInfo>
#include <QLibrary>

#include <algorithm>
#include <cstring>
#include <tuple>

namespace cohort {

namespace {
// The part of nvml.h this file uses, declared here so that the build needs no NVML header. Types and values as
// NVIDIA documents them (NVML API reference); every function returns an nvmlReturn_t, 0 meaning success.
using NvmlReturn = int;
using NvmlDevice = struct NvmlDeviceOpaque *;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr unsigned kNvmlTemperatureGpu = 0; // nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU
constexpr unsigned kNvmlClockSm = 1;        // nvmlClockType_t NVML_CLOCK_SM
constexpr unsigned kNvmlClockMem = 2;       // nvmlClockType_t NVML_CLOCK_MEM
constexpr unsigned kNvmlNameBuffer = 96;    // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kNvmlUuidBuffer = 96;    // NVML_DEVICE_UUID_V2_BUFFER_SIZE

struct NvmlUtilization { // nvmlUtilization_t
    unsigned gpu;
    unsigned memory;
};
struct NvmlMemory { // nvmlMemory_t (v1): bytes
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

using FnVoid = NvmlReturn (*)();
using FnErrorString = const char *(*)(NvmlReturn);
using FnCount = NvmlReturn (*)(unsigned *);
using FnHandle = NvmlReturn (*)(unsigned, NvmlDevice *);
using FnText = NvmlReturn (*)(NvmlDevice, char *, unsigned);
using FnUtilization = NvmlReturn (*)(NvmlDevice, NvmlUtilization *);
using FnMemory = NvmlReturn (*)(NvmlDevice, NvmlMemory *);
using FnUnsigned = NvmlReturn (*)(NvmlDevice, unsigned *);
using FnUnsignedOf = NvmlReturn (*)(NvmlDevice, unsigned, unsigned *); // temperature (sensor), clock (type)
using FnProcesses = NvmlReturn (*)(NvmlDevice, unsigned *, void *);    // count in/out, an array of process infos

constexpr NvmlReturn kNvmlInsufficientSize = 7;              // NVML_ERROR_INSUFFICIENT_SIZE
constexpr unsigned long long kNvmlValueNotAvailable = ~0ULL; // NVML_VALUE_NOT_AVAILABLE
struct NvmlProcessInfoV1 {                                   // nvmlProcessInfo_v1_t: the unversioned functions
    unsigned pid;
    unsigned long long usedGpuMemory;
};
struct NvmlProcessInfoV2 { // nvmlProcessInfo_v2_t / nvmlProcessInfo_t: the _v2 and _v3 functions
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};
} // namespace

struct Nvml::Api {
    QLibrary library;
    bool initialised = false;
    // Required: without these there is nothing to read.
    FnVoid init = nullptr;
    FnVoid shutdown = nullptr;
    FnErrorString errorString = nullptr;
    FnCount count = nullptr;
    FnHandle handle = nullptr;
    // Optional: a library without one leaves that value unknown.
    FnText name = nullptr;
    FnText uuid = nullptr;
    FnUtilization utilization = nullptr;
    FnMemory memory = nullptr;
    FnUnsignedOf temperature = nullptr;
    FnUnsigned power = nullptr;
    FnUnsigned powerLimit = nullptr;
    FnUnsignedOf clock = nullptr;
    FnUnsigned fan = nullptr;
    // Optional, the newest version the library has: the element layout differs between the first and the others.
    FnProcesses computeProcesses = nullptr;
    FnProcesses graphicsProcesses = nullptr;
    int processesVersion = 0; // 1, 2 or 3; 0: cannot list processes

    QString error(NvmlReturn code) const
    {
        const char *text = errorString ? errorString(code) : nullptr;
        return text && *text ? QString::fromUtf8(text) : QStringLiteral("NVML error %1").arg(code);
    }
};

struct Nvml::Device {
    unsigned index = 0;
    NvmlDevice handle = nullptr; // null: NVML gave no handle (every value unknown)
    QString name;
    QString uuid;
    QStringList fixedNotes; // what went wrong reading the name, UUID or handle
};

Nvml::Nvml()
    : m_api(std::make_unique<Api>())
{}

Nvml::~Nvml()
{
    if (m_api->initialised && m_api->shutdown)
        m_api->shutdown();
    // The library stays mapped (QLibrary's destructor does not unload): another Nvml in this process may share the
    // handle, and unloading a driver library buys nothing.
}

QString Nvml::defaultLibrary()
{
    const QString overridden = qEnvironmentVariable(kLibraryEnv);
    if (!overridden.isEmpty())
        return overridden;
#ifdef Q_OS_WIN
    return QStringLiteral("nvml.dll");
#else
    return QStringLiteral("libnvidia-ml.so.1");
#endif
}

Expected<std::unique_ptr<Nvml>> Nvml::open(const QString &library)
{
    std::unique_ptr<Nvml> nvml(new Nvml);
    Api &api = *nvml->m_api;
#ifdef Q_OS_WIN
    api.library.setFileName(library);
#else
    if (library == QLatin1String("libnvidia-ml.so.1"))
        api.library.setFileNameAndVersion(QStringLiteral("nvidia-ml"),
                                          1); // exactly that soname, from the loader's path
    else
        api.library.setFileName(library);
#endif
    bool loaded = api.library.load();
#ifdef Q_OS_WIN
    if (!loaded && library == QLatin1String("nvml.dll")) {
        // Drivers before R450 put it next to nvidia-smi rather than in System32.
        const QString nvsmi = qEnvironmentVariable("ProgramW6432", QStringLiteral("C:/Program Files")) +
                              QStringLiteral("/NVIDIA Corporation/NVSMI/nvml.dll");
        api.library.setFileName(QDir::fromNativeSeparators(nvsmi));
        loaded = api.library.load();
    }
#endif
    if (!loaded) {
        // Most machines simply have no NVIDIA driver: say that plainly; anything else gets the loader's words.
        const QString why = api.library.errorString();
        if (why.contains(QLatin1String("No such file")) ||
            (QFileInfo(library).isAbsolute() && !QFileInfo::exists(library)))
            return fail(QStringLiteral("No NVML (%1 not found)").arg(library));
        return fail(QStringLiteral("No NVML (%1 cannot be loaded: %2)").arg(library, why));
    }

    const auto resolve = [&api](auto &fn, const char *symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(api.library.resolve(symbol));
        return fn != nullptr;
    };
    const struct {
        bool resolved;
        const char *symbol;
    } required[] = {
        {resolve(api.init, "nvmlInit_v2"), "nvmlInit_v2"},
        {resolve(api.shutdown, "nvmlShutdown"), "nvmlShutdown"},
        {resolve(api.errorString, "nvmlErrorString"), "nvmlErrorString"},
        {resolve(api.count, "nvmlDeviceGetCount_v2"), "nvmlDeviceGetCount_v2"},
        {resolve(api.handle, "nvmlDeviceGetHandleByIndex_v2"), "nvmlDeviceGetHandleByIndex_v2"},
    };
    for (const auto &r : required)
        if (!r.resolved)
            return fail(QStringLiteral("NVML at %1 lacks %2 (an old or damaged driver library)")
                            .arg(api.library.fileName(), QLatin1String(r.symbol)));
    const struct {
        bool resolved;
        const char *symbol;
    } optional[] = {
        {resolve(api.name, "nvmlDeviceGetName"), "nvmlDeviceGetName"},
        {resolve(api.uuid, "nvmlDeviceGetUUID"), "nvmlDeviceGetUUID"},
        {resolve(api.utilization, "nvmlDeviceGetUtilizationRates"), "nvmlDeviceGetUtilizationRates"},
        {resolve(api.memory, "nvmlDeviceGetMemoryInfo"), "nvmlDeviceGetMemoryInfo"},
        {resolve(api.temperature, "nvmlDeviceGetTemperature"), "nvmlDeviceGetTemperature"},
        {resolve(api.power, "nvmlDeviceGetPowerUsage"), "nvmlDeviceGetPowerUsage"},
        {resolve(api.powerLimit, "nvmlDeviceGetEnforcedPowerLimit"), "nvmlDeviceGetEnforcedPowerLimit"},
        {resolve(api.clock, "nvmlDeviceGetClockInfo"), "nvmlDeviceGetClockInfo"},
        {resolve(api.fan, "nvmlDeviceGetFanSpeed"), "nvmlDeviceGetFanSpeed"},
    };
    for (const auto &o : optional)
        if (!o.resolved)
            nvml->m_missing.append(QLatin1String(o.symbol));
    // Both kinds from the same version, so one element layout serves both.
    for (const auto &[version, compute, graphics] :
         {std::tuple{3, "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v3"},
          std::tuple{2, "nvmlDeviceGetComputeRunningProcesses_v2", "nvmlDeviceGetGraphicsRunningProcesses_v2"},
          std::tuple{1, "nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses"}}) {
        if (resolve(api.computeProcesses, compute) && resolve(api.graphicsProcesses, graphics)) {
            api.processesVersion = version;
            break;
        }
    }
    if (api.processesVersion == 0) // not a reading (missingFunctions() is about those): processes() says it instead
        api.computeProcesses = api.graphicsProcesses = nullptr;

    if (const NvmlReturn r = api.init(); r != kNvmlSuccess)
        return fail(QStringLiteral("NVML did not start (%1)").arg(api.error(r)));
    api.initialised = true;

    unsigned count = 0;
    if (const NvmlReturn r = api.count(&count); r != kNvmlSuccess)
        return fail(QStringLiteral("NVML cannot count the GPUs (%1)").arg(api.error(r)));
    for (unsigned i = 0; i < count; ++i) {
        Device d;
        d.index = i;
        if (const NvmlReturn r = api.handle(i, &d.handle); r != kNvmlSuccess) {
            d.handle = nullptr;
            d.fixedNotes.append(QStringLiteral("device: %1").arg(api.error(r)));
        }
        char text[qMax(kNvmlNameBuffer, kNvmlUuidBuffer)] = {};
        if (d.handle && api.name) {
            if (const NvmlReturn r = api.name(d.handle, text, kNvmlNameBuffer); r == kNvmlSuccess)
                d.name = QString::fromUtf8(text, qstrnlen(text, kNvmlNameBuffer));
            else
                d.fixedNotes.append(QStringLiteral("name: %1").arg(api.error(r)));
        }
        if (d.handle && api.uuid) {
            text[0] = 0;
            if (const NvmlReturn r = api.uuid(d.handle, text, kNvmlUuidBuffer); r == kNvmlSuccess)
                d.uuid = QString::fromUtf8(text, qstrnlen(text, kNvmlUuidBuffer));
            else
                d.fixedNotes.append(QStringLiteral("uuid: %1").arg(api.error(r)));
        }
        if (d.name.isEmpty())
            d.name = QStringLiteral("GPU %1").arg(i);
        nvml->m_devices.push_back(std::move(d));
    }
    return nvml;
}

QString Nvml::libraryPath() const
{
    return m_api->library.fileName();
}

int Nvml::deviceCount() const
{
    return int(m_devices.size());
}

QStringList Nvml::missingFunctions() const
{
    return m_missing;
}

QString Nvml::driverSummary() const
{
    QStringList names;
    for (const Device &d : m_devices)
        names.append(d.name);
    return QStringLiteral("%1 GPU%2 via NVML (%3): %4")
        .arg(m_devices.size())
        .arg(m_devices.size() == 1 ? QString() : QStringLiteral("s"), QFileInfo(libraryPath()).fileName(),
             names.join(QStringLiteral(", ")));
}

QList<GpuSample> Nvml::sample()
{
    const Api &api = *m_api;
    QList<GpuSample> out;
    out.reserve(qsizetype(m_devices.size()));
    for (const Device &d : m_devices) {
        GpuSample s;
        s.index = int(d.index);
        s.name = d.name;
        s.uuid = d.uuid;
        s.notes = d.fixedNotes;
        if (!d.handle) {
            out.append(s);
            continue;
        }
        // Each value on its own: one failing call (not supported, no permission, GPU lost) costs that value only.
        const auto read = [&](const char *what, auto fn, const char *symbol, auto &&call) {
            if (!fn) {
                s.notes.append(
                    QStringLiteral("%1: this NVML lacks %2").arg(QLatin1String(what), QLatin1String(symbol)));
                return;
            }
            if (const NvmlReturn r = call(); r != kNvmlSuccess)
                s.notes.append(QStringLiteral("%1: %2").arg(QLatin1String(what), api.error(r)));
        };
        NvmlUtilization util{};
        read("utilization", api.utilization, "nvmlDeviceGetUtilizationRates", [&] {
            const NvmlReturn r = api.utilization(d.handle, &util);
            if (r == kNvmlSuccess) {
                s.utilizationPercent = int(util.gpu);
                s.memoryUtilizationPercent = int(util.memory);
            }
            return r;
        });
        NvmlMemory mem{};
        read("memory", api.memory, "nvmlDeviceGetMemoryInfo", [&] {
            const NvmlReturn r = api.memory(d.handle, &mem);
            if (r == kNvmlSuccess) {
                s.memoryUsedBytes = qint64(mem.used);
                s.memoryTotalBytes = qint64(mem.total);
            }
            return r;
        });
        unsigned value = 0;
        read("temperature", api.temperature, "nvmlDeviceGetTemperature", [&] {
            const NvmlReturn r = api.temperature(d.handle, kNvmlTemperatureGpu, &value);
            if (r == kNvmlSuccess)
                s.temperatureC = int(value);
            return r;
        });
        read("power", api.power, "nvmlDeviceGetPowerUsage", [&] {
            const NvmlReturn r = api.power(d.handle, &value);
            if (r == kNvmlSuccess)
                s.powerW = value / 1000.0; // milliwatts
            return r;
        });
        read("power limit", api.powerLimit, "nvmlDeviceGetEnforcedPowerLimit", [&] {
            const NvmlReturn r = api.powerLimit(d.handle, &value);
            if (r == kNvmlSuccess)
                s.powerLimitW = value / 1000.0;
            return r;
        });
        read("SM clock", api.clock, "nvmlDeviceGetClockInfo", [&] {
            const NvmlReturn r = api.clock(d.handle, kNvmlClockSm, &value);
            if (r == kNvmlSuccess)
                s.smClockMHz = int(value);
            return r;
        });
        read("memory clock", api.clock, "nvmlDeviceGetClockInfo", [&] {
            const NvmlReturn r = api.clock(d.handle, kNvmlClockMem, &value);
            if (r == kNvmlSuccess)
                s.memoryClockMHz = int(value);
            return r;
        });
        read("fan", api.fan, "nvmlDeviceGetFanSpeed", [&] {
            const NvmlReturn r = api.fan(d.handle, &value);
            if (r == kNvmlSuccess)
                s.fanPercent = int(value);
            return r;
        });
        out.append(s);
    }
    return out;
}

Expected<QList<GpuProcess>> Nvml::processes()
{
    const Api &api = *m_api;
    if (api.processesVersion == 0)
        return fail(QStringLiteral("this NVML cannot list the processes on a GPU"));
    QList<GpuProcess> out;
    const bool v1 = api.processesVersion == 1;
    const size_t element = v1 ? sizeof(NvmlProcessInfoV1) : sizeof(NvmlProcessInfoV2);
    std::vector<unsigned char> buffer;
    for (const Device &d : m_devices) {
        if (!d.handle)
            continue;
        for (const auto &[fn, graphics] :
             {std::pair{api.computeProcesses, false}, std::pair{api.graphicsProcesses, true}}) {
            // Asked with room for 16; a GPU with more answers "insufficient size" with its count and is asked once
            // more with room for them all (up to the cap; beyond it that GPU's list is left out).
            unsigned count = 16;
            NvmlReturn r = kNvmlInsufficientSize;
            for (int attempt = 0; attempt < 2 && r == kNvmlInsufficientSize; ++attempt) {
                count = std::min(std::max(count, 16u), kMaxProcessesPerGpu);
                buffer.assign(size_t(count) * element, 0);
                r = fn(d.handle, &count, buffer.data());
            }
            if (r != kNvmlSuccess)
                continue; // this GPU, this kind: not answered (not supported, GPU lost); the others still count
            count = std::min(count, unsigned(buffer.size() / element));
            for (unsigned i = 0; i < count; ++i) {
                GpuProcess p;
                p.gpuIndex = int(d.index);
                p.graphics = graphics;
                unsigned long long used = kNvmlValueNotAvailable;
                if (v1) {
                    NvmlProcessInfoV1 info;
                    std::memcpy(&info, buffer.data() + i * element, sizeof info);
                    p.pid = info.pid;
                    used = info.usedGpuMemory;
                } else {
                    NvmlProcessInfoV2 info;
                    std::memcpy(&info, buffer.data() + i * element, sizeof info);
                    p.pid = info.pid;
                    used = info.usedGpuMemory;
                }
                p.usedMemoryBytes = used == kNvmlValueNotAvailable ? -1 : qint64(used);
                out.append(p);
            }
        }
    }
    return out;
}

} // namespace cohort
