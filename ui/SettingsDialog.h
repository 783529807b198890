#pragma once
// Settings, in pages: General (language, start minimized, start at login, notifications, tray icon), Compute (GPUs,
// when to work, limits), Network (hub, bandwidth caps, proxy), Storage (data folder and its move, disk cap) and Account
// (node name and id, key export, payout address, electricity tariff). A list on the left picks the page (arrow keys
// or Ctrl+Tab / Ctrl+PgDown); each page is its own class (ui/Settings*Page.h) that loads and reads its fields.
// Fields are checked with Settings::validate and errors appear under the field they concern (the dialog turns to
// the page of the first one). Apply commits everything through Settings::apply (one change signal) and asks the OS
// for start-at-login; whatever fails stays in the fields with its message, so nothing the user typed is lost.
#include "core/EngineSnapshot.h"
#include "settings/Settings.h"

#include <QDialog>
#include <QHash>
#include <QList>
#include <functional>

class QDialogButtonBox;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace cohort {

class Autostart;
class InlineErrorLabel;
class SettingsAccountPage;
class SettingsComputePage;
class SettingsGeneralPage;
class SettingsPage;
class SettingsStoragePage;

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
    bool isMovingDataFolder() const;

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
    void addPage(SettingsPage *page);
    void setFields(const SettingsValues &values); // every page loads its part
    void onFieldEdited();
    void onMoveFinished(const QString &from, const QString &to, const QString &error);
    void showErrors(const QList<SettingsError> &errors);
    void clearErrors();
    bool confirm(const QString &title, const QString &text);
    QString askPath(PathRequest request);

    Settings *m_settings;
    Autostart *m_autostart;
    QListWidget *m_navigation = nullptr;
    QStackedWidget *m_pages = nullptr;
    QList<SettingsPage *> m_pageList; // in Page order
    SettingsGeneralPage *m_general = nullptr;
    SettingsComputePage *m_compute = nullptr;
    SettingsStoragePage *m_storage = nullptr;
    SettingsAccountPage *m_account = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QHash<QString, InlineErrorLabel *> m_errorLabels; // every page's, and the dialog's own under the key ""
    SettingsValues m_loadedValues;
    bool m_loadedAutostart = false;
    bool m_loading = false;
    QString m_identityFile;
    std::function<QString(PathRequest)> m_pathProvider;
    std::function<bool(const QString &, const QString &)> m_confirmProvider;
    std::function<void(std::function<void()>)> m_stopEngine;
    std::function<void()> m_startEngine;
};

} // namespace cohort
