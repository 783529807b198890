#pragma once
// The one typed settings class: defaults, validation with per-field errors, a single change signal, numbered
// migrations. Each stored field is declared once, in the table of SettingsFields.cpp. Backed by an INI file written
// through QSettings (which saves via a temporary file and rename, so a crash never leaves a half-written file).
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

namespace cohort {

// Tray notifications: none, errors only, or errors and milestones (first verified batch, a finished download, ...).
enum class NotifyLevel { Off, Errors, ErrorsAndMilestones };
// The tray's state icons: in colour (default), or monochrome with light glyphs (for dark panels) or dark glyphs
// (for light panels), as many desktops prefer for their panel.
enum class TrayIconStyle { Colour, Light, Dark };
// How Cohort reaches the network: directly, through the system's proxy settings, or through one HTTP proxy.
enum class ProxyMode { None, System, Manual };

struct SettingsValues {
    QString hubUrl;   // empty: start the embedded local network
    QString dataDir;  // empty: the platform's application data location
    QString nodeName; // shown to the hub operator; empty: the host name
    bool startMinimized = false;
    bool welcomed = false; // the first-run welcome was shown (and answered); true for settings from before it existed
    int downloadLimitKiBps = 0; // checkpoint downloads; 0: unlimited

    // When to work (the engine's Scheduler): all off/unlimited except pausing on battery.
    bool runOnlyWhenIdle = false;
    int idleMinutes = 5; // no keyboard/mouse input this long counts as idle (1..240)
    bool pauseOnBattery = true;
    QStringList schedule;   // allowed windows, e.g. "mon-fri 22:00-06:00"; empty: any time
    int gpuTempLimitC = 0;  // 0: none, else 50..100: throttle at the limit, pause 8 °C above
    int gpuPowerLimitW = 0; // 0: none, else 10..2000 (all GPUs in use together)
    int diskCapGiB = 0;     // 0: none; Cohort's data folder may not grow beyond this
    // Pause when I play: while a full-screen window is in front, while a program on this list runs (executable names,
    // "steam" or "Game.exe"; at most kMaxPausePrograms), while another process uses the GPU.
    bool pauseWhenFullscreen = false;
    QStringList pauseForPrograms;
    bool pauseWhenGpuBusy = false;

    // General
    QString language; // empty: the system's; else one of Settings::languages() (applies at the next start)
    NotifyLevel notifications = NotifyLevel::ErrorsAndMilestones;
    TrayIconStyle trayIconStyle = TrayIconStyle::Colour;

    // Compute: the GPUs Cohort may use, by NVML UUID ("GPU-…"); empty: all of them (the default, also for GPUs added
    // later)
    QStringList gpuUuids;
    int gpuMemoryPercent = 90; // 10..100: the share of each GPU's memory Cohort's generation may use
    // A share of its own for some GPUs (NVML UUID → 10..100), over gpuMemoryPercent. Stored as "GPU-…:60" entries.
    QMap<QString, int> gpuMemoryPercentPerGpu;

    // Network
    int uploadLimitKiBps = 0; // 0: unlimited
    ProxyMode proxyMode = ProxyMode::None;
    QString proxy;          // "host:port" of an HTTP proxy; used when proxyMode is Manual
    QString hubCertificate; // a PEM file: a hub certificate (or private CA) trusted besides the system's CAs
    // The hub's ed25519 public key (base64, as cohort-hub prints it), from its operator: the first registration then
    // trusts only this key instead of whatever key the hub presents (trust on first use). Empty: trust on first use.
    QString hubKey;

    // Account
    QString payoutAddress; // EVM style "0x" + 40 hex digits; empty: none given yet

    // Energy: what the machine's electricity costs, to show earnings net of it. 0: not set.
    double pricePerKWh = 0; // in `currency`
    QString currency;       // a label, e.g. "EUR"; required when pricePerKWh is set
    double creditValue = 0; // what one credit is worth in `currency`; 0: unknown (then only the cost is shown)

    bool operator==(const SettingsValues &) const = default;
};

struct SchedulerPolicy;

struct SettingsError {
    QString key;     // the field's name: "hubUrl", "dataDir", "nodeName", "downloadLimitKiBps", "schedule", ...
    QString message; // for people, shown next to the field
};

class Settings : public QObject {
    Q_OBJECT
public:
    static constexpr int kCurrentVersion = 3;
    static constexpr int kMaxDownloadLimitKiBps = 10'000'000; // 10 GB/s: anything above means "unlimited"
    static constexpr int kMaxUploadLimitKiBps = kMaxDownloadLimitKiBps;
    static constexpr int kMaxGpus = 64;
    static constexpr int kMaxPausePrograms = 64;

    // What changed() reports, by type: a value, or a group of values that only mean something together (the
    // scheduler's policy, the proxy, the energy figures). Declared in the settings table's order
    // (SettingsFields.cpp); each is named after its field or group, as logs and cohortd's console say it.
    enum class Change {
        HubUrl,
        DataDir,
        NodeName,
        StartMinimized,
        Welcomed,
        DownloadLimitKiBps,
        Scheduler,
        Language,
        Notifications,
        TrayIconStyle,
        GpuUuids,
        GpuMemoryPercent,
        GpuMemoryPercentPerGpu,
        UploadLimitKiBps,
        HubCertificate,
        HubKey,
        Proxy,
        PayoutAddress,
        Energy,
    };
    Q_ENUM(Change)
    using Changes = QList<Change>;
    static QString changeName(Change change);           // "hubUrl", "scheduler": the enumerator, first letter lower
    static QString changeNames(const Changes &changes); // "scheduler, uploadLimitKiBps"

    // filePath empty: <config location>/Cohort/cohort.ini
    explicit Settings(const QString &filePath = {}, QObject *parent = nullptr);

    const SettingsValues &values() const { return m_values; }
    static SettingsValues defaults();
    // Each field's rule (its row names it): at most one message per field, in the app's language, in the rows' order.
    static QList<SettingsError> validate(const SettingsValues &values);
    static QString normalizedHubUrl(const QString &url);
    // The 32 key bytes of a hub key as typed (base64, surrounding blanks ignored); empty when it is no such key.
    static QByteArray hubKeyFromText(const QString &text);
    // The translations shipped ("de", "fr", ...) plus "en"; "" (the system's language) is always allowed too.
    static QStringList languages();
    static QString notifyLevelName(NotifyLevel level);     // "off", "errors", "all" (as stored)
    static QString trayIconStyleName(TrayIconStyle style); // "colour", "light", "dark" (as stored)
    static QString proxyModeName(ProxyMode mode);          // "none", "system", "manual" (as stored)
    // The per-GPU memory shares as stored ("GPU-…:60") and back. An entry that is not "<uuid>:<percent>" is kept
    // under its whole text with percent -1, so that validate() refuses it with a message.
    static QStringList gpuMemorySharesText(const QMap<QString, int> &shares);
    static QMap<QString, int> gpuMemorySharesFromText(const QStringList &entries);
    // "host:port" -> host and port; false with a reason for people otherwise.
    static bool parseProxy(const QString &text, QString *host, quint16 *port, QString *why = nullptr);
    // Empty when `address` is a valid payout address, else why not (format, or a mixed-case checksum that does not
    // match).
    static QString payoutAddressProblem(const QString &address);
    // The EIP-55 mixed-case form of a valid 0x address (Keccak-256 of the lower-case hex).
    static QString checksummedAddress(const QString &address);
    // The scheduler's policy from the (validated) values.
    static SchedulerPolicy schedulerPolicy(const SettingsValues &values);
    // Whether any of these changes is to a value the engine's options hold.
    static bool reachesEngine(const Changes &changes);

    // Validates and, if valid, writes everything and emits changed() once. Returns the errors otherwise.
    QList<SettingsError> apply(const SettingsValues &values);
    // Reads the file again (someone edited it: cohortd follows its settings file); emits changed() with what
    // differs, which it also returns. A value that does not validate keeps the one in use, with a warning.
    Changes reload();

    QString filePath() const { return m_filePath; }
    QString effectiveDataDir() const; // dataDir or the default location
    static QString defaultDataDir();
    QString effectiveNodeName() const;
    int versionOnDisk() const { return m_versionOnDisk; } // before migrations ran

    static QString defaultFilePath();

Q_SIGNALS:
    void changed(const cohort::SettingsValues &values, const cohort::Settings::Changes &changes);

private:
    // Reads the file; a value that does not validate takes its value from `fallback` (the defaults at start, the
    // values in use on a reload) with a warning.
    void load(const SettingsValues &fallback);
    QString m_filePath;
    SettingsValues m_values;
    int m_versionOnDisk = 0;
};

} // namespace cohort
