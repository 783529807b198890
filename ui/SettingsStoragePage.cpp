#include "ui/SettingsStoragePage.h"

#include "ui/DataFolderMove.h"
#include "ui/DisplayFormat.h"
#include "ui/InlineErrorLabel.h"
#include "ui/UiLogging.h"

#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>

namespace cohort {

SettingsStoragePage::SettingsStoragePage(Settings *settings, QWidget *parent)
    : SettingsPage(tr("Storage"), "storagePage", parent),
      m_settings(settings)
{
    QWidget *content = this->content();
    m_dataDir = new QLineEdit(content);
    bind(m_dataDir, &SettingsValues::dataDir);
    m_dataDir->setObjectName(QStringLiteral("dataDirEdit"));
    m_dataDir->setAccessibleName(tr("Data folder"));
    m_dataDir->setPlaceholderText(Settings::defaultDataDir());
    m_dataDir->setToolTip(tr("Where the node keeps its identity key, downloaded models and history. Changing it here "
                             "starts over in that folder; use Move… to take the data along."));
    auto *browse = new QPushButton(tr("Browse…"), content);
    browse->setObjectName(QStringLiteral("browseDataDirButton"));
    browse->setAccessibleName(tr("Choose another data folder"));
    connect(browse, &QPushButton::clicked, this, &SettingsStoragePage::browseDataDir);
    m_moveButton = new QPushButton(tr("Move…"), content);
    m_moveButton->setObjectName(QStringLiteral("moveDataDirButton"));
    m_moveButton->setAccessibleName(tr("Move the data folder"));
    m_moveButton->setToolTip(
        tr("Copy the data to another folder, check every file, switch to it, then delete the old copy."));
    connect(m_moveButton, &QPushButton::clicked, this, &SettingsStoragePage::moveRequested);
    m_moveStatus = new QLabel(content);
    m_moveStatus->setObjectName(QStringLiteral("moveDataDirStatus"));
    m_moveStatus->setWordWrap(true);
    m_moveStatus->hide();
    m_diskCap = spinBox("diskCapSpin", 0, 1'000'000, tr(" GiB"), tr("No cap"), tr("Disk space cap"));
    bind(m_diskCap, &SettingsValues::diskCapGiB);
    m_diskCap->setToolTip(tr("The most space Cohort's data folder may use; at the cap it pauses and says so."));

    auto *dataRow = new QWidget(content);
    auto *dataLayout = new QHBoxLayout(dataRow);
    dataLayout->setContentsMargins(0, 0, 0, 0);
    dataLayout->addWidget(m_dataDir, 1);
    dataLayout->addWidget(browse);
    dataLayout->addWidget(m_moveButton);
    auto *form = new QFormLayout(content);
    form->addRow(tr("Data folder:"), withErrorLabel(dataRow, QStringLiteral("dataDir")));
    form->addRow(QString(), withErrorLabel(m_moveStatus, QStringLiteral("moveDataDir")));
    form->addRow(QString(), note(tr("Move… takes the node key, models and history along. Typing or browsing to another "
                                    "folder instead starts over there, with a new node key.")));
    form->addRow(tr("Disk space cap:"), withErrorLabel(m_diskCap, QStringLiteral("diskCapGiB")));
    setWidget(content);
}

void SettingsStoragePage::browseDataDir()
{
    const QString start = m_dataDir->text().isEmpty() ? m_settings->effectiveDataDir() : m_dataDir->text();
    const QString chosen = QFileDialog::getExistingDirectory(this, tr("Choose the data folder"), start);
    if (!chosen.isEmpty())
        m_dataDir->setText(chosen);
}

void SettingsStoragePage::moveTo(const QString &target, const Confirm &confirm,
                                 const std::function<void(std::function<void()>)> &stopEngine)
{
    InlineErrorLabel *error = errorLabels().value(QStringLiteral("moveDataDir"));
    error->clearError();
    Q_EMIT revealRequested();
    if (m_move)
        return;
    const QString from = m_settings->effectiveDataDir();
    if (const QString why = DataFolderMove::checkTarget(from, target); !why.isEmpty()) {
        error->showError(why);
        return;
    }
    if (!confirm(tr("Move the data folder"),
                 tr("Move Cohort's data from\n%1\nto\n%2?\n\nCohort stops working while it copies the files and checks "
                    "every copy, then switches to the new folder. The old files are deleted only after that succeeded.")
                     .arg(QDir::toNativeSeparators(from), QDir::toNativeSeparators(target))))
        return;
    m_move = new DataFolderMove(from, target, this);
    connect(m_move, &DataFolderMove::progress, this, [this](qint64 done, qint64 total) {
        m_moveStatus->setText(tr("Copying and checking: %1 of %2…").arg(display::bytes(done), display::bytes(total)));
    });
    connect(m_move, &DataFolderMove::finished, this, &SettingsStoragePage::onMoveFinished);
    m_moveButton->setEnabled(false);
    Q_EMIT moveStarted();
    m_moveStatus->setText(tr("Stopping the engine…"));
    m_moveStatus->show();
    const auto begin = [move = QPointer<DataFolderMove>(m_move), this] {
        if (!move)
            return;
        m_moveStatus->setText(tr("Copying and checking…"));
        move->start();
    };
    if (stopEngine)
        stopEngine(begin);
    else
        begin();
}

void SettingsStoragePage::onMoveFinished(bool ok, const QString &copyError)
{
    DataFolderMove *move = m_move;
    QString error = copyError;
    if (ok) {
        // Switch the setting (only the folder: other edits on the pages stay pending), then delete the originals.
        SettingsValues v = m_settings->values();
        v.dataDir = move->to();
        if (const QList<SettingsError> errors = m_settings->apply(v); !errors.isEmpty())
            error = errors.first().message;
    }
    if (error.isEmpty()) {
        const int kept = move->removeOriginals();
        m_moveStatus->setText(kept == 0
                                  ? tr("Moved to %1.").arg(QDir::toNativeSeparators(move->to()))
                                  : tr("Moved to %1. %n item(s) in the old folder were not Cohort's or could not be "
                                       "deleted and were left there.",
                                       nullptr, kept)
                                        .arg(QDir::toNativeSeparators(move->to())));
        const Filling filling(this); // the stored folder now, not an edit
        m_dataDir->setText(m_settings->values().dataDir);
        qCInfo(lcUi) << "data folder moved from" << move->from() << "to" << move->to();
    } else {
        move->removeCopy();
        m_moveStatus->hide();
        errorLabels()
            .value(QStringLiteral("moveDataDir"))
            ->showError(tr("The data folder was not moved: %1").arg(error));
        qCWarning(lcUi) << "data folder move failed:" << error;
    }
    const QString from = move->from();
    const QString to = move->to();
    m_move = nullptr;
    move->deleteLater();
    m_moveButton->setEnabled(true);
    Q_EMIT moveFinished(from, to, error);
}

} // namespace cohort
