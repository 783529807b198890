#pragma once
// Settings, Network page: the hub (address, certificate, key), the bandwidth caps and the proxy (whose address field
// is enabled only for a manual proxy).
#include "ui/SettingsPage.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace cohort {

class SettingsNetworkPage : public SettingsPage {
    Q_OBJECT
public:
    explicit SettingsNetworkPage(QWidget *parent = nullptr);

    void load(const SettingsValues &values) override;
    void refresh() override;

private:
    void updateProxyField();

    QLineEdit *m_hubUrl = nullptr;
    QLineEdit *m_hubCertificate = nullptr;
    QLineEdit *m_hubKey = nullptr;
    QSpinBox *m_downloadLimit = nullptr;
    QSpinBox *m_uploadLimit = nullptr;
    QComboBox *m_proxyMode = nullptr;
    QLineEdit *m_proxy = nullptr;
};

} // namespace cohort
