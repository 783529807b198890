#pragma once
// What this computer has earned. The hub's ledger is not wired to the desktop yet, so this page is an
// honest empty state with the two figures (pending, confirmed) at zero rather than invented numbers.
#include <QWidget>

class QHBoxLayout;
class QLabel;

namespace cohort {

class EarningsPage : public QWidget {
    Q_OBJECT
public:
    explicit EarningsPage(QWidget *parent = nullptr);

    // Pending: reported work the hub has not verified yet. Confirmed: verified and credited.
    void setTotals(double pending, double confirmed, const QString &unit);

private:
    QLabel *makeFigure(const QString &caption, const char *objectName, QHBoxLayout *row);

    QLabel *m_pending = nullptr;
    QLabel *m_confirmed = nullptr;
    QLabel *m_emptyState = nullptr;
};

} // namespace cohort
