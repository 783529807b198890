#pragma once
// Settings, in pages: General (language, start minimized, start at login, notifications, tray icon), Compute (GPUs,
// when to work, limits), Network (hub, bandwidth caps, proxy), Storage (data folder and its move, disk cap) and Account
// (node name and id, key export, payout address, electricity tariff). A list on the left picks the page (arrow keys
// or Ctrl+Tab / Ctrl+PgDown); the pages are built in SettingsPages.cpp.
// Fields are checked with Settings::validate and errors appear under the field they concern (the dialog turns to
// the page of the first one). Apply commits everything through Settings::apply (one change signal) and asks the OS
// for start-at-login; whatever fails stays in the fields with its message, so nothing the user typed is lost.
#include "core/EngineSnapshot.h"
#include "settings/Settings.h"
#include "ui/SettingsBindings.h"

#include <QDialog>
#include <QHash>
#include <functional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QTreeWidget;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace cohort {

class Autostart;
class DataFolderMove;
class InlineErrorLabel;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    enum Page { GeneralPage, ComputePage, NetworkPage, StoragePage, AccountPage, PageCount };
    // What a file dialog is asked for (tests answer instead, through setPathProvider).
    enum class PathRequest { MoveDataFolder, ExportKey };

    // autostart may be null (then start-at-login is disabled); neither pointer is owned.
    SettingsDialog(Settings *settings, Autostart *autostart, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    SettingsValues fieldValues() const;
    bool isModified() const;
    // The message under a field (a SettingsError key such as "hubUrl" or "proxy", "autostart", "moveDataDir",
    // "exportKey", or "" for the dialog).
    InlineErrorLabel *errorLabel(const QString &key) const;
    QPushButton *applyButton() const;
    QPushButton *okButton() const;
    int currentPage() const;
    QString pageTitle(int page) const;

    void setTrayAvailable(bool available);
    // Replace the file dialogs and the confirmation boxes (tests, or a caller that knows the answer).
    void setPathProvider(std::function<QString(PathRequest)> provider) { m_pathProvider = std::move(provider); }
    void setConfirmProvider(std::function<bool(const QString &title, const QString &text)> provider)
    {
        m_confirmProvider = std::move(provider);
    }
    // Moving the data folder needs the engine stopped: stop(continuation) stops it and then calls continuation;
    // start() starts it again (in whichever folder the settings then name). Without hooks the move just copies.
    void setEngineHooks(std::function<void(std::function<void()>)> stop, std::function<void()> start);
    // The node's key file, for "Export key…" (by default <effective data folder>/identity/node.key).
    void setIdentityFile(const QString &path) { m_identityFile = path; }
    QString identityFile() const;
    bool isMovingDataFolder() const { return m_move != nullptr; }

public Q_SLOTS:
    void load();            // fill the fields from what is stored now
    bool apply();           // false if anything was refused; the messages are shown inline
    void restoreDefaults(); // fields only: nothing is saved until Apply or OK
    void openAndRaise();    // reloads first if the dialog was closed
    void showPage(int page);
    // From the engine's snapshots: the GPUs to choose from and the node id (the dialog keeps the last ones).
    void showSnapshot(const cohort::EngineSnapshot &snapshot);
    void setGpus(const QList<cohort::GpuSample> &gpus);
    void setNodeId(const QString &nodeId);
    void moveDataFolder();                        // asks where, checks, confirms, then moves
    void moveDataFolderTo(const QString &target); // checks, confirms, then moves
    bool exportKey();                             // asks where, confirms, then writes the key file (0600)
    bool exportKeyTo(const QString &target);

Q_SIGNALS:
    void dataFolderMoved(const QString &from, const QString &to);
    void dataFolderMoveFailed(const QString &error);

protected:
    void accept() override; // OK closes only when Apply succeeded
    void reject() override; // not while the data folder is being moved
    void keyPressEvent(QKeyEvent *event) override;

private:
    // SettingsPages.cpp
    QWidget *buildGeneralPage();
    QWidget *buildComputePage();
    QWidget *buildNetworkPage();
    QWidget *buildStoragePage();
    QWidget *buildAccountPage();
    QSpinBox *spinBox(const char *name, int min, int max, const QString &suffix, const QString &none,
                      const QString &accessible);
    // One row per GPU: ticked when Cohort may use it, and its own memory share (0: the share for every GPU).
    void fillGpuList(const QList<GpuSample> &gpus, const QStringList &chosen, const QMap<QString, int> &shares);
    void addGpuRow(const QString &uuid, const QString &text, bool chosen, int share);
    void updateGpuRows(); // "use all" ticks every row and locks the ticks; the shares stay editable
    static QString gpuChoiceNote();
    QStringList chosenGpus() const;
    QMap<QString, int> gpuShares() const;
    void updateProxyField();
    void updatePayoutHint();
    void onMoveFinished(bool ok, const QString &error);

    // SettingsDialog.cpp
    QWidget *withErrorLabel(QWidget *field, const QString &key);
    void addPage(QWidget *page, const QString &title);
    void browseDataDir();
    void setFields(const SettingsValues &values);
    void onFieldEdited();
    void showErrors(const QList<SettingsError> &errors);
    void clearErrors();
    bool confirm(const QString &title, const QString &text);
    QString askPath(PathRequest request);

    Settings *m_settings;
    Autostart *m_autostart;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_pages = nullptr;
    // General
    QComboBox *m_language = nullptr;
    QCheckBox *m_startMinimized = nullptr;
    QCheckBox *m_startAtLogin = nullptr;
    QComboBox *m_notifications = nullptr;
    QComboBox *m_trayIconStyle = nullptr;
    QLabel *m_trayNote = nullptr;
    // Compute
    QCheckBox *m_useAllGpus = nullptr;
    QTreeWidget *m_gpuList = nullptr;
    QLabel *m_gpuNote = nullptr;
    QCheckBox *m_idleOnly = nullptr;
    QSpinBox *m_idleMinutes = nullptr;
    QCheckBox *m_pauseOnBattery = nullptr;
    QLineEdit *m_schedule = nullptr; // windows separated by ';'
    QCheckBox *m_pauseWhenFullscreen = nullptr;
    QLineEdit *m_pauseForPrograms = nullptr; // executable names separated by ';'
    QCheckBox *m_pauseWhenGpuBusy = nullptr;
    QSpinBox *m_gpuTempLimit = nullptr;
    QSpinBox *m_gpuPowerLimit = nullptr;
    QSpinBox *m_gpuMemory = nullptr;
    // Network
    QLineEdit *m_hubUrl = nullptr;
    QSpinBox *m_downloadLimit = nullptr;
    QSpinBox *m_uploadLimit = nullptr;
    QComboBox *m_proxyMode = nullptr;
    QLineEdit *m_proxy = nullptr;
    QLineEdit *m_hubCertificate = nullptr;
    QLineEdit *m_hubKey = nullptr;
    // Storage
    QLineEdit *m_dataDir = nullptr;
    QPushButton *m_moveButton = nullptr;
    QLabel *m_moveStatus = nullptr;
    QSpinBox *m_diskCap = nullptr;
    // Account
    QLineEdit *m_nodeName = nullptr;
    QLineEdit *m_nodeId = nullptr;
    QPushButton *m_copyNodeId = nullptr;
    QPushButton *m_exportKey = nullptr;
    QLabel *m_exportStatus = nullptr;
    QLineEdit *m_payoutAddress = nullptr;
    QLabel *m_payoutHint = nullptr;
    QDoubleSpinBox *m_pricePerKWh = nullptr;
    QLineEdit *m_currency = nullptr;
    QDoubleSpinBox *m_creditValue = nullptr;

    QDialogButtonBox *m_buttons = nullptr;
    SettingsBindings m_bindings; // which widget shows which setting (bound where each page makes it)
    QHash<QString, InlineErrorLabel *> m_errorLabels;
    SettingsValues m_loadedValues;
    bool m_loadedAutostart = false;
    bool m_loading = false;
    QList<GpuSample> m_gpus; // the last ones the engine reported
    QString m_identityFile;
    std::function<QString(PathRequest)> m_pathProvider;
    std::function<bool(const QString &, const QString &)> m_confirmProvider;
    std::function<void(std::function<void()>)> m_stopEngine;
    std::function<void()> m_startEngine;
    DataFolderMove *m_move = nullptr;
};

} // namespace cohort
