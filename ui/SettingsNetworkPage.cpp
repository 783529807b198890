#include "ui/SettingsNetworkPage.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace cohort {

SettingsNetworkPage::SettingsNetworkPage(QWidget *parent)
    : SettingsPage(tr("Network"), "networkPage", parent)
{
    QWidget *content = this->content();
    m_hubUrl = new QLineEdit(content);
    bind(m_hubUrl, &SettingsValues::hubUrl);
    m_hubUrl->setObjectName(QStringLiteral("hubUrlEdit"));
    m_hubUrl->setAccessibleName(tr("Hub address"));
    m_hubUrl->setPlaceholderText(tr("Empty: run a local network on this computer"));
    m_hubUrl->setToolTip(tr("The address of the hub that hands out work, e.g. https://hub.example.org.\n"
                            "Leave it empty to try Cohort with a small network that runs on this computer."));
    m_hubCertificate = new QLineEdit(content);
    bind(m_hubCertificate, &SettingsValues::hubCertificate);
    m_hubCertificate->setObjectName(QStringLiteral("hubCertificateEdit"));
    m_hubCertificate->setAccessibleName(tr("Hub certificate"));
    m_hubCertificate->setPlaceholderText(tr("Empty: trust the system's certificate authorities"));
    m_hubCertificate->setToolTip(tr("For a hub whose https certificate no public authority signed: a PEM file with the "
                                    "hub's certificate (or its private authority's), from the hub's operator."));
    m_hubKey = new QLineEdit(content);
    bind(m_hubKey, &SettingsValues::hubKey);
    m_hubKey->setObjectName(QStringLiteral("hubKeyEdit"));
    m_hubKey->setAccessibleName(tr("Hub key"));
    m_hubKey->setPlaceholderText(tr("Empty: trust the key the hub presents the first time"));
    m_hubKey->setToolTip(
        tr("The hub's public key, as its operator publishes it (44 characters). With it, this computer "
           "talks only to the real hub, even the first time it connects."));
    m_downloadLimit = spinBox("downloadLimitSpin", 0, Settings::kMaxDownloadLimitKiBps, tr(" KiB/s"), tr("No limit"),
                              tr("Download limit"));
    bind(m_downloadLimit, &SettingsValues::downloadLimitKiBps);
    m_downloadLimit->setSingleStep(512);
    m_downloadLimit->setToolTip(tr("The most bandwidth model downloads may use. 0: no limit."));
    m_uploadLimit =
        spinBox("uploadLimitSpin", 0, Settings::kMaxUploadLimitKiBps, tr(" KiB/s"), tr("No limit"), tr("Upload limit"));
    bind(m_uploadLimit, &SettingsValues::uploadLimitKiBps);
    m_uploadLimit->setSingleStep(128);
    // The bulk uploads are DiLoCo traffic to the other nodes of a training ring (the engine's collectives pace them);
    // signed work batches and heartbeats to the hub are a few KiB and not paced.
    m_uploadLimit->setToolTip(
        tr("The most bandwidth uploads to other computers may use: DiLoCo training traffic to the "
           "other nodes of its ring. Applies at once. 0: no limit."));
    m_proxyMode = new QComboBox(content);
    bind(m_proxyMode, &SettingsValues::proxyMode);
    m_proxyMode->setObjectName(QStringLiteral("proxyModeCombo"));
    m_proxyMode->setAccessibleName(tr("Proxy"));
    m_proxyMode->addItem(tr("No proxy"), int(ProxyMode::None));
    m_proxyMode->addItem(tr("Use the system's proxy settings"), int(ProxyMode::System));
    m_proxyMode->addItem(tr("Manual HTTP proxy"), int(ProxyMode::Manual));
    m_proxy = new QLineEdit(content);
    bind(m_proxy, &SettingsValues::proxy);
    m_proxy->setObjectName(QStringLiteral("proxyEdit"));
    m_proxy->setAccessibleName(tr("Proxy address"));
    m_proxy->setPlaceholderText(tr("host:port, e.g. proxy.example.org:3128"));
    connect(m_proxyMode, &QComboBox::currentIndexChanged, this, &SettingsNetworkPage::updateProxyField);

    auto *form = new QFormLayout(content);
    form->addRow(tr("Hub address:"), withErrorLabel(m_hubUrl, QStringLiteral("hubUrl")));
    form->addRow(tr("Hub certificate:"), withErrorLabel(m_hubCertificate, QStringLiteral("hubCertificate")));
    form->addRow(tr("Hub key:"), withErrorLabel(m_hubKey, QStringLiteral("hubKey")));
    form->addRow(tr("Download limit:"), withErrorLabel(m_downloadLimit, QStringLiteral("downloadLimitKiBps")));
    form->addRow(tr("Upload limit:"), withErrorLabel(m_uploadLimit, QStringLiteral("uploadLimitKiBps")));
    form->addRow(tr("Proxy:"), m_proxyMode);
    form->addRow(tr("Proxy address:"), withErrorLabel(m_proxy, QStringLiteral("proxy")));
    form->addRow(QString(), note(tr("The proxy applies to new connections at once; connections to this computer "
                                    "(the local network) never use it.")));
    setWidget(content);
}

void SettingsNetworkPage::load(const SettingsValues &values)
{
    SettingsPage::load(values);
    updateProxyField();
}

void SettingsNetworkPage::refresh()
{
    updateProxyField();
}

void SettingsNetworkPage::updateProxyField()
{
    m_proxy->setEnabled(ProxyMode(m_proxyMode->currentData().toInt()) == ProxyMode::Manual);
}

} // namespace cohort
