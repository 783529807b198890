#include "settings/SettingsFields.h"

#include "settings/SettingsRules.h"

#include <QLatin1StringView>
#include <array>
#include <type_traits>

namespace cohort::settings {
namespace {

// How a value of each type is stored. read() starts from the value in `v` (the default) and returns false when the
// stored text is no value of the type (a hand-edited file): the row then falls back, with a warning.
template <typename T>
struct Codec;

template <>
struct Codec<QString> {
    static bool read(const QSettings &s, const char *key, QString &v)
    {
        v = s.value(QLatin1StringView(key), v).toString();
        return true;
    }
    static void write(QSettings &s, const char *key, const QString &v) { s.setValue(QLatin1StringView(key), v); }
};

template <>
struct Codec<bool> {
    static bool read(const QSettings &s, const char *key, bool &v)
    {
        v = s.value(QLatin1StringView(key), v).toBool();
        return true;
    }
    static void write(QSettings &s, const char *key, bool v) { s.setValue(QLatin1StringView(key), v); }
};

template <>
struct Codec<int> {
    static bool read(const QSettings &s, const char *key, int &v)
    {
        bool ok = false;
        const int read = s.value(QLatin1StringView(key), v).toInt(&ok);
        if (ok)
            v = read;
        return ok;
    }
    static void write(QSettings &s, const char *key, int v) { s.setValue(QLatin1StringView(key), v); }
};

template <>
struct Codec<double> {
    static bool read(const QSettings &s, const char *key, double &v)
    {
        bool ok = false;
        const double read = s.value(QLatin1StringView(key), v).toDouble(&ok);
        if (ok)
            v = read; // NaN and the infinities pass here; validate() refuses them
        return ok;
    }
    static void write(QSettings &s, const char *key, double v) { s.setValue(QLatin1StringView(key), v); }
};

template <>
struct Codec<QStringList> {
    static bool read(const QSettings &s, const char *key, QStringList &v)
    {
        v = s.value(QLatin1StringView(key), v).toStringList();
        return true;
    }
    static void write(QSettings &s, const char *key, const QStringList &v) { s.setValue(QLatin1StringView(key), v); }
};

// Per-GPU memory shares, stored as "GPU-…:60" entries, and no entry at all when there are none.
template <>
struct Codec<QMap<QString, int>> {
    static bool read(const QSettings &s, const char *key, QMap<QString, int> &v)
    {
        if (s.contains(QLatin1StringView(key)))
            v = Settings::gpuMemorySharesFromText(
                s.value(QLatin1StringView(key)).toStringList()); // bad entries: validate()
        return true;
    }
    static void write(QSettings &s, const char *key, const QMap<QString, int> &v)
    {
        if (v.isEmpty())
            s.remove(QLatin1StringView(key));
        else
            s.setValue(QLatin1StringView(key), Settings::gpuMemorySharesText(v));
    }
};

// A choice among names: the stored text must be one of them.
template <typename E, QString (*Name)(E), E... Values>
struct EnumCodec {
    static bool read(const QSettings &s, const char *key, E &v)
    {
        const QString text = s.value(QLatin1StringView(key), Name(v)).toString();
        for (const E e : {Values...}) {
            if (text == Name(e)) {
                v = e;
                return true;
            }
        }
        return false;
    }
    static void write(QSettings &s, const char *key, E v) { s.setValue(QLatin1StringView(key), Name(v)); }
};

template <>
struct Codec<NotifyLevel> : EnumCodec<NotifyLevel, &Settings::notifyLevelName, NotifyLevel::Off, NotifyLevel::Errors,
                                      NotifyLevel::ErrorsAndMilestones> {};
template <>
struct Codec<TrayIconStyle> : EnumCodec<TrayIconStyle, &Settings::trayIconStyleName, TrayIconStyle::Colour,
                                        TrayIconStyle::Light, TrayIconStyle::Dark> {};
template <>
struct Codec<ProxyMode>
    : EnumCodec<ProxyMode, &Settings::proxyModeName, ProxyMode::None, ProxyMode::System, ProxyMode::Manual> {};

template <auto Member>
using MemberType = std::remove_cvref_t<decltype(std::declval<SettingsValues &>().*Member)>;

template <auto Member>
bool readMember(const QSettings &store, const Field &field, SettingsValues &values)
{
    return Codec<MemberType<Member>>::read(store, field.iniKey, values.*Member);
}

template <auto Member>
void writeMember(QSettings &store, const Field &field, const SettingsValues &values)
{
    Codec<MemberType<Member>>::write(store, field.iniKey, values.*Member);
}

template <auto Member>
void copyMember(SettingsValues &to, const SettingsValues &from)
{
    to.*Member = from.*Member;
}

template <auto Member>
bool memberDiffers(const SettingsValues &a, const SettingsValues &b)
{
    return !(a.*Member == b.*Member);
}

struct Traits {
    const char *group = nullptr;
    std::optional<Settings::Change> alsoChanges = std::nullopt;
    bool engine = false;
    QString (*check)(const SettingsValues &) = nullptr;
};

template <auto Member>
constexpr Field row(const char *name, const char *iniKey, Settings::Change change, Traits traits = {})
{
    return {name,
            iniKey,
            traits.group,
            change,
            traits.alsoChanges,
            traits.engine,
            traits.check,
            &readMember<Member>,
            &writeMember<Member>,
            &copyMember<Member>,
            &memberDiffers<Member>};
}

using V = SettingsValues;
using C = Settings::Change;
namespace r = rules;

// In the order of Settings::Change. The scheduler's policy (Settings::schedulerPolicy) is made of the rows that
// change Scheduler.
const std::array kFields{
    row<&V::hubUrl>("hubUrl", "network/hubUrl", C::HubUrl, {.engine = true, .check = r::hubUrl}),
    row<&V::dataDir>("dataDir", "storage/dataDir", C::DataDir, {.engine = true, .check = r::dataDir}),
    row<&V::nodeName>("nodeName", "node/name", C::NodeName, {.engine = true, .check = r::nodeName}),
    row<&V::startMinimized>("startMinimized", "ui/startMinimized", C::StartMinimized),
    row<&V::welcomed>("welcomed", "ui/welcomed", C::Welcomed),
    row<&V::downloadLimitKiBps>("downloadLimitKiBps", "network/downloadLimitKiBps", C::DownloadLimitKiBps,
                                {.engine = true, .check = r::downloadLimitKiBps}),
    row<&V::runOnlyWhenIdle>("runOnlyWhenIdle", "schedule/runOnlyWhenIdle", C::Scheduler, {.engine = true}),
    row<&V::idleMinutes>("idleMinutes", "schedule/idleMinutes", C::Scheduler,
                         {.engine = true, .check = r::idleMinutes}),
    row<&V::pauseOnBattery>("pauseOnBattery", "schedule/pauseOnBattery", C::Scheduler, {.engine = true}),
    row<&V::schedule>("schedule", "schedule/windows", C::Scheduler, {.engine = true, .check = r::schedule}),
    row<&V::pauseWhenFullscreen>("pauseWhenFullscreen", "schedule/pauseWhenFullscreen", C::Scheduler, {.engine = true}),
    row<&V::pauseForPrograms>("pauseForPrograms", "schedule/pauseForPrograms", C::Scheduler,
                              {.engine = true, .check = r::pauseForPrograms}),
    row<&V::pauseWhenGpuBusy>("pauseWhenGpuBusy", "schedule/pauseWhenGpuBusy", C::Scheduler, {.engine = true}),
    row<&V::gpuTempLimitC>("gpuTempLimitC", "limits/gpuTempLimitC", C::Scheduler,
                           {.engine = true, .check = r::gpuTempLimitC}),
    row<&V::gpuPowerLimitW>("gpuPowerLimitW", "limits/gpuPowerLimitW", C::Scheduler,
                            {.engine = true, .check = r::gpuPowerLimitW}),
    row<&V::diskCapGiB>("diskCapGiB", "limits/diskCapGiB", C::Scheduler, {.engine = true, .check = r::diskCapGiB}),
    row<&V::language>("language", "ui/language", C::Language, {.check = r::language}),
    row<&V::notifications>("notifications", "ui/notifications", C::Notifications),
    row<&V::trayIconStyle>("trayIconStyle", "ui/trayIcon", C::TrayIconStyle),
    // The scheduler watches the chosen GPUs' temperature and power.
    row<&V::gpuUuids>("gpuUuids", "compute/gpus", C::GpuUuids,
                      {.alsoChanges = C::Scheduler, .engine = true, .check = r::gpuUuids}),
    row<&V::gpuMemoryPercent>("gpuMemoryPercent", "compute/gpuMemoryPercent", C::GpuMemoryPercent,
                              {.engine = true, .check = r::gpuMemoryPercent}),
    row<&V::gpuMemoryPercentPerGpu>("gpuMemoryPercentPerGpu", "compute/gpuMemoryPerGpu", C::GpuMemoryPercentPerGpu,
                                    {.engine = true, .check = r::gpuMemoryPercentPerGpu}),
    row<&V::uploadLimitKiBps>("uploadLimitKiBps", "network/uploadLimitKiBps", C::UploadLimitKiBps,
                              {.engine = true, .check = r::uploadLimitKiBps}),
    row<&V::hubCertificate>("hubCertificate", "network/hubCertificate", C::HubCertificate,
                            {.engine = true, .check = r::hubCertificate}),
    row<&V::hubKey>("hubKey", "network/hubKey", C::HubKey, {.engine = true, .check = r::hubKey}),
    // A manual proxy that cannot be used falls back with its mode: connect as before it was set. The app applies a
    // proxy process-wide, not through the engine's options.
    row<&V::proxyMode>("proxyMode", "network/proxyMode", C::Proxy, {.group = "proxy"}),
    row<&V::proxy>("proxy", "network/proxy", C::Proxy, {.group = "proxy", .check = r::proxy}),
    row<&V::payoutAddress>("payoutAddress", "account/payoutAddress", C::PayoutAddress,
                           {.engine = true, .check = r::payoutAddress}),
    // Price, currency and credit value only mean something together.
    row<&V::pricePerKWh>("pricePerKWh", "energy/pricePerKWh", C::Energy, {.group = "energy", .check = r::pricePerKWh}),
    row<&V::currency>("currency", "energy/currency", C::Energy, {.group = "energy", .check = r::currency}),
    row<&V::creditValue>("creditValue", "energy/creditValue", C::Energy, {.group = "energy", .check = r::creditValue}),
};

} // namespace

std::span<const Field> fields()
{
    return kFields;
}

const Field *findField(const QString &name)
{
    for (const Field &f : kFields)
        if (name == QLatin1StringView(f.name))
            return &f;
    return nullptr;
}

} // namespace cohort::settings
