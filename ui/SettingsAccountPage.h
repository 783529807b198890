#pragma once
// Settings, Account page: this node (its name; its id, to copy; Export key… for a private copy of its secret key)
// and payout and energy (the payout address with its rule or checksummed form, the electricity tariff and what a
// credit is worth).
#include "ui/SettingsPage.h"

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace cohort {

class SettingsAccountPage : public SettingsPage {
    Q_OBJECT
public:
    explicit SettingsAccountPage(QWidget *parent = nullptr);

    void load(const SettingsValues &values) override;
    void refresh() override;

    void setNodeId(const QString &nodeId); // an empty id (not known yet) changes nothing
    // Export key…: says so when there is no `keyFile` yet; else explains and asks `confirm`, asks `askTarget` where
    // to, and writes the copy there (exportKeyTo). False when nothing was written.
    bool exportKey(const QString &keyFile, const Confirm &confirm, const std::function<QString()> &askTarget);
    bool exportKeyTo(const QString &keyFile, const QString &target); // whole and owner-only, or not at all

Q_SIGNALS:
    void exportRequested(); // Export key… was pressed

private:
    void updatePayoutHint();

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
};

} // namespace cohort
