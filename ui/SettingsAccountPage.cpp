#include "ui/SettingsAccountPage.h"

#include "platform/FilePermissions.h"
#include "ui/InlineErrorLabel.h"
#include "ui/UiLogging.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSysInfo>
#include <QVBoxLayout>

namespace cohort {

SettingsAccountPage::SettingsAccountPage(QWidget *parent)
    : SettingsPage(tr("Account"), "accountPage", parent)
{
    QWidget *content = this->content();
    m_nodeName = new QLineEdit(content);
    bind(m_nodeName, &SettingsValues::nodeName);
    m_nodeName->setObjectName(QStringLiteral("nodeNameEdit"));
    m_nodeName->setAccessibleName(tr("Node name"));
    m_nodeName->setPlaceholderText(QSysInfo::machineHostName());
    m_nodeName->setToolTip(tr("How this computer is shown to the hub's operator. Empty: the computer's name."));
    m_nodeId = new QLineEdit(content);
    m_nodeId->setObjectName(QStringLiteral("nodeIdEdit"));
    m_nodeId->setAccessibleName(tr("Node id"));
    m_nodeId->setReadOnly(true);
    m_nodeId->setPlaceholderText(tr("Known once the engine has started"));
    m_copyNodeId = new QPushButton(tr("Copy"), content);
    m_copyNodeId->setObjectName(QStringLiteral("copyNodeIdButton"));
    m_copyNodeId->setAccessibleName(tr("Copy the node id"));
    m_copyNodeId->setEnabled(false);
    connect(m_copyNodeId, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_nodeId->text()); });
    m_exportKey = new QPushButton(tr("Export key…"), content);
    m_exportKey->setObjectName(QStringLiteral("exportKeyButton"));
    m_exportKey->setAccessibleName(tr("Export the node key"));
    m_exportKey->setToolTip(tr("Save a copy of this node's secret key, e.g. to move the node to another computer."));
    connect(m_exportKey, &QPushButton::clicked, this, &SettingsAccountPage::exportRequested);
    m_exportStatus = new QLabel(content);
    m_exportStatus->setObjectName(QStringLiteral("exportKeyStatus"));
    m_exportStatus->setWordWrap(true);
    m_exportStatus->setTextFormat(Qt::PlainText);
    m_exportStatus->hide();

    m_payoutAddress = new QLineEdit(content);
    bind(m_payoutAddress, &SettingsValues::payoutAddress);
    m_payoutAddress->setObjectName(QStringLiteral("payoutAddressEdit"));
    m_payoutAddress->setAccessibleName(tr("Payout address"));
    m_payoutAddress->setPlaceholderText(QStringLiteral("0x…"));
    m_payoutAddress->setMaxLength(64);
    m_payoutHint = note(QString());
    m_payoutHint->setObjectName(QStringLiteral("payoutAddressHint"));

    m_pricePerKWh = new QDoubleSpinBox(content);
    bind(m_pricePerKWh, &SettingsValues::pricePerKWh);
    m_pricePerKWh->setObjectName(QStringLiteral("pricePerKWhSpin"));
    m_pricePerKWh->setAccessibleName(tr("Electricity price per kWh"));
    m_pricePerKWh->setRange(0, 100);
    m_pricePerKWh->setDecimals(4);
    m_pricePerKWh->setSingleStep(0.01);
    m_pricePerKWh->setSpecialValueText(tr("Not set"));
    m_pricePerKWh->setSuffix(tr(" per kWh"));
    m_currency = new QLineEdit(content);
    bind(m_currency, &SettingsValues::currency);
    m_currency->setObjectName(QStringLiteral("currencyEdit"));
    m_currency->setAccessibleName(tr("Currency"));
    m_currency->setPlaceholderText(tr("e.g. EUR"));
    m_currency->setMaxLength(8);
    m_currency->setMaximumWidth(100);
    m_creditValue = new QDoubleSpinBox(content);
    bind(m_creditValue, &SettingsValues::creditValue);
    m_creditValue->setObjectName(QStringLiteral("creditValueSpin"));
    m_creditValue->setAccessibleName(tr("Value of one credit"));
    m_creditValue->setRange(0, 1e6);
    m_creditValue->setDecimals(4);
    m_creditValue->setSingleStep(0.01);
    m_creditValue->setSpecialValueText(tr("Unknown"));
    m_creditValue->setToolTip(tr("What one credit is worth to you, in the same currency. With it, the Earnings page "
                                 "shows earnings net of electricity; without it, only the electricity cost."));

    auto *nodeBox = new QGroupBox(tr("This node"), content);
    auto *nodeForm = new QFormLayout(nodeBox);
    nodeForm->addRow(tr("Node name:"), withErrorLabel(m_nodeName, QStringLiteral("nodeName")));
    auto *idRow = new QWidget(content);
    auto *idLayout = new QHBoxLayout(idRow);
    idLayout->setContentsMargins(0, 0, 0, 0);
    idLayout->addWidget(m_nodeId, 1);
    idLayout->addWidget(m_copyNodeId);
    idLayout->addWidget(m_exportKey);
    nodeForm->addRow(tr("Node id:"), withErrorLabel(idRow, QStringLiteral("exportKey")));
    nodeForm->addRow(QString(), m_exportStatus);
    auto *payBox = new QGroupBox(tr("Payout and energy"), content);
    auto *payForm = new QFormLayout(payBox);
    payForm->addRow(tr("Payout address:"), withErrorLabel(m_payoutAddress, QStringLiteral("payoutAddress")));
    payForm->addRow(QString(), m_payoutHint);
    // The price and its currency share a row, and their two messages sit under it.
    payForm->addRow(tr("Electricity price:"),
                    withErrorLabel(withErrorLabel(row({m_pricePerKWh, m_currency}), QStringLiteral("pricePerKWh")),
                                   QStringLiteral("currency")));
    payForm->addRow(tr("One credit is worth:"), withErrorLabel(m_creditValue, QStringLiteral("creditValue")));
    auto *layout = new QVBoxLayout(content);
    layout->addWidget(nodeBox);
    layout->addWidget(payBox);
    layout->addStretch(1);
    setWidget(content);
}

void SettingsAccountPage::load(const SettingsValues &values)
{
    SettingsPage::load(values);
    updatePayoutHint();
}

void SettingsAccountPage::refresh()
{
    updatePayoutHint();
}

void SettingsAccountPage::updatePayoutHint()
{
    const QString address = m_payoutAddress->text().trimmed();
    // The rule, said where it applies; and the checksummed form once the address is valid, for comparing with a wallet.
    if (!address.isEmpty() && Settings::payoutAddressProblem(address).isEmpty())
        m_payoutHint->setText(tr("Valid. With checksum: %1").arg(Settings::checksummedAddress(address)));
    else
        m_payoutHint->setText(tr("An Ethereum-style address: 0x and 40 hexadecimal digits. Mixed upper and lower case "
                                 "must match the address checksum (EIP-55); all lower or all upper case has none."));
}

void SettingsAccountPage::setNodeId(const QString &nodeId)
{
    if (nodeId.isEmpty() || nodeId == m_nodeId->text())
        return;
    m_nodeId->setText(nodeId);
    m_copyNodeId->setEnabled(true);
}

bool SettingsAccountPage::exportKey(const QString &keyFile, const Confirm &confirm,
                                    const std::function<QString()> &askTarget)
{
    if (!QFileInfo::exists(keyFile)) {
        Q_EMIT revealRequested();
        errorLabels()
            .value(QStringLiteral("exportKey"))
            ->showError(tr("There is no node key yet: it is created when the engine first starts."));
        return false;
    }
    if (!confirm(tr("Export the node key"),
                 tr("The node key is this node's identity: whoever has the file can act as this node and is credited "
                    "its earnings. Keep the copy private (Cohort saves it readable by you only), and never send it to "
                    "anyone, including support.\n\nExport it now?")))
        return false;
    const QString target = askTarget();
    return !target.isEmpty() && exportKeyTo(keyFile, target);
}

bool SettingsAccountPage::exportKeyTo(const QString &keyFile, const QString &target)
{
    InlineErrorLabel *error = errorLabels().value(QStringLiteral("exportKey"));
    error->clearError();
    m_exportStatus->hide();
    Q_EMIT revealRequested(); // where the outcome is said
    const auto refuse = [&](const QString &why) {
        error->showError(why);
        return false;
    };
    if (QFileInfo(target).absoluteFilePath() == QFileInfo(keyFile).absoluteFilePath())
        return refuse(tr("Choose another place than the key file itself."));
    QFile in(keyFile);
    if (!in.open(QIODevice::ReadOnly))
        return refuse(
            tr("Could not read the node key %1: %2").arg(QDir::toNativeSeparators(keyFile), in.errorString()));
    const QByteArray key = in.readAll();
    // QSaveFile: an existing file is replaced only once the new one is complete; owner-only before any byte is written.
    QSaveFile out(target);
    if (!out.open(QIODevice::WriteOnly))
        return refuse(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(target), out.errorString()));
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (out.write(key) != key.size() || !out.commit())
        return refuse(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(target), out.errorString()));
    if (const Status restricted = restrictToOwner(target); !restricted.ok())
        return refuse(tr("Saved %1, but could not make it private: %2")
                          .arg(QDir::toNativeSeparators(target), restricted.error()));
    m_exportStatus->setText(
        tr("Saved the node key to %1 (readable by you only).").arg(QDir::toNativeSeparators(target)));
    m_exportStatus->show();
    qCInfo(lcUi) << "node key exported to" << target;
    return true;
}

} // namespace cohort
