#pragma once
// What this computer has earned, as the hub's ledger reports it: totals, today and the last 7 days, per task,
// and an hourly chart. Until the first report (or while everything is zero) it keeps an honest empty state
// rather than invented numbers. A report read from the node's cache is labelled as such while the hub is away.
#include "core/EarningsReport.h"
#include "core/Expected.h"
#include "ui/EarningsChart.h"
#include "ui/EnergyCost.h"

#include <QWidget>
#include <functional>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableWidget;

namespace cohort {

class InlineErrorLabel;

class EarningsPage : public QWidget {
    Q_OBJECT
public:
    explicit EarningsPage(QWidget *parent = nullptr);

    const EarningsReport &report() const { return m_report; }
    bool hasReport() const { return m_hasReport; }

    // Writes the shown report's hourly history (toCsv) to path, atomically.
    Status exportCsv(const QString &path);
    // Asks where "Export CSV…" saves; a file dialog unless replaced (tests). An empty answer cancels.
    void setSavePathProvider(std::function<QString()> provider) { m_savePath = std::move(provider); }

public Q_SLOTS:
    // fromCache: the node's saved copy rather than a fresh answer from the hub.
    void setReport(const cohort::EarningsReport &report, bool fromCache);
    // From the engine's heartbeats: once the hub answers again the cache notice goes.
    void setHubReachable(bool reachable);
    void exportCsvInteractively();
    // Energy the GPUs drew (the engine's snapshot, from the stored GPU history) and the electricity tariff from
    // Settings: the page then shows the energy, its cost and earnings net of it; "no GPU power readings" when there
    // are none.
    void setEnergy(const cohort::EnergyUse &energy);
    void setTariff(double pricePerKWh, const QString &currency, double creditValue);
    // The payout address in Settings, compared with the one the hub's report says it has on record.
    void setLocalPayoutAddress(const QString &address);

private:
    struct Figure {
        QLabel *value = nullptr;
        QLabel *detail = nullptr;
    };
    Figure makeFigure(const QString &caption, const QString &name, QHBoxLayout *row);
    void showFigures();
    void fillTaskTable();
    void updateChart();
    void updateNotices();
    QString amount(double value) const;
    QString askSavePath();
    void showEnergy();
    void showPayout();

    EarningsReport m_report;
    bool m_hasReport = false;
    bool m_hubReachable = true;
    std::function<QString()> m_savePath;

    Figure m_pending;
    Figure m_confirmed;
    Figure m_refused;
    QLabel *m_updated = nullptr;
    QLabel *m_cacheNotice = nullptr;
    QLabel *m_emptyState = nullptr;
    QLabel *m_exportNote = nullptr;
    InlineErrorLabel *m_exportError = nullptr;
    QComboBox *m_range = nullptr;
    QPushButton *m_exportButton = nullptr;
    EarningsChart *m_chart = nullptr;
    QTableWidget *m_tasks = nullptr;
    QWidget *m_details = nullptr;  // chart and table: hidden in the empty state
    QLabel *m_energy = nullptr;    // energy used, or why it is unknown
    QLabel *m_energyNet = nullptr; // its cost and earnings net of it, or how to see them
    QLabel *m_payout = nullptr;    // where the hub pays this node's earnings, checked against Settings
    QString m_localPayoutAddress;
    EnergyUse m_energyUse;
    bool m_hasEnergy = false;
    double m_pricePerKWh = 0;
    QString m_currency;
    double m_creditValue = 0;
};

} // namespace cohort
