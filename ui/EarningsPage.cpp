#include "ui/EarningsPage.h"

#include "settings/Settings.h"

#include "ui/DisplayFormat.h"
#include "ui/InlineErrorLabel.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cohort {

namespace {
enum Column { TaskColumn, PendingColumn, ConfirmedColumn, TokensColumn, BatchesColumn, ColumnCount };

QTableWidgetItem *numberItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

void setMuted(QLabel *label)
{
    QPalette muted = label->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    label->setPalette(muted);
}
} // namespace

EarningsPage::EarningsPage(QWidget *parent)
    : QWidget(parent)
{
    m_updated = new QLabel(this);
    m_updated->setObjectName(QStringLiteral("earningsUpdated"));
    setMuted(m_updated);

    m_range = new QComboBox(this);
    m_range->setObjectName(QStringLiteral("earningsRange"));
    m_range->addItem(tr("Last 24 hours"), int(EarningsChart::Range::Day));
    m_range->addItem(tr("Last 7 days"), int(EarningsChart::Range::Week));
    m_range->addItem(tr("Last 30 days"), int(EarningsChart::Range::Month));
    m_range->setCurrentIndex(1);
    connect(m_range, &QComboBox::currentIndexChanged, this, &EarningsPage::updateChart);

    m_exportButton = new QPushButton(tr("Export CSV…"), this);
    m_exportButton->setObjectName(QStringLiteral("exportCsvButton"));
    m_exportButton->setToolTip(tr("Save the hourly history as a spreadsheet file (times in UTC)"));
    connect(m_exportButton, &QPushButton::clicked, this, &EarningsPage::exportCsvInteractively);

    auto *header = new QHBoxLayout;
    header->addWidget(m_updated);
    header->addStretch(1); // keeps the buttons at the right when the label is hidden
    header->addWidget(m_range);
    header->addWidget(m_exportButton);

    m_cacheNotice = new QLabel(this);
    m_cacheNotice->setObjectName(QStringLiteral("earningsCacheNotice"));
    m_cacheNotice->setWordWrap(true);
    m_cacheNotice->setFrameShape(QFrame::StyledPanel);
    m_cacheNotice->setContentsMargins(8, 6, 8, 6);
    m_cacheNotice->hide();

    m_exportError = new InlineErrorLabel(this);
    m_exportError->setObjectName(QStringLiteral("exportCsvError"));
    m_exportNote = new QLabel(this);
    m_exportNote->setObjectName(QStringLiteral("exportCsvNote"));
    m_exportNote->setTextFormat(Qt::PlainText);
    m_exportNote->setWordWrap(true);
    m_exportNote->hide();

    auto *figures = new QHBoxLayout;
    figures->setSpacing(12);
    m_pending = makeFigure(tr("Pending"), QStringLiteral("pending"), figures);
    m_confirmed = makeFigure(tr("Confirmed"), QStringLiteral("confirmed"), figures);
    m_refused = makeFigure(tr("Refused"), QStringLiteral("refused"), figures);

    auto *explanation = new QLabel(tr("<b>Pending</b> is work you have reported that the hub has not checked yet. "
                                      "<b>Confirmed</b> is work the hub has verified and credited to this node. "
                                      "<b>Refused</b> was accepted at first, then failed verification."),
                                   this);
    explanation->setWordWrap(true);

    auto *energyCard = new QFrame(this);
    energyCard->setObjectName(QStringLiteral("energyCard"));
    energyCard->setFrameShape(QFrame::StyledPanel);
    m_energy = new QLabel(energyCard);
    m_energy->setObjectName(QStringLiteral("energyUsed"));
    m_energy->setWordWrap(true);
    m_energyNet = new QLabel(energyCard);
    m_energyNet->setObjectName(QStringLiteral("energyNet"));
    m_energyNet->setWordWrap(true);
    auto *energyLayout = new QVBoxLayout(energyCard);
    energyLayout->setSpacing(2);
    energyLayout->addWidget(m_energy);
    energyLayout->addWidget(m_energyNet);

    m_payout = new QLabel(this);
    m_payout->setObjectName(QStringLiteral("payoutOnRecord"));
    m_payout->setWordWrap(true);
    m_payout->setTextFormat(Qt::PlainText);
    m_payout->setTextInteractionFlags(Qt::TextSelectableByMouse); // to compare with a wallet
    m_payout->hide();

    m_emptyState = new QLabel(this);
    m_emptyState->setObjectName(QStringLiteral("earningsEmptyState"));
    m_emptyState->setAlignment(Qt::AlignCenter);
    m_emptyState->setWordWrap(true);
    m_emptyState->setText(
        tr("No earnings yet — earnings appear here once your machine's work is verified by the hub."));
    setMuted(m_emptyState);

    m_chart = new EarningsChart(this);

    m_tasks = new QTableWidget(0, ColumnCount, this);
    m_tasks->setObjectName(QStringLiteral("earningsTaskTable"));
    m_tasks->setHorizontalHeaderLabels({tr("Task"), tr("Pending"), tr("Confirmed"), tr("Tokens"), tr("Batches")});
    m_tasks->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tasks->setSelectionMode(QAbstractItemView::NoSelection);
    m_tasks->setWordWrap(false);
    m_tasks->verticalHeader()->hide();
    m_tasks->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tasks->horizontalHeader()->setSectionResizeMode(TaskColumn, QHeaderView::Stretch);

    m_details = new QWidget(this);
    auto *details = new QVBoxLayout(m_details);
    details->setContentsMargins(0, 0, 0, 0);
    details->addWidget(m_chart, 1);
    details->addWidget(m_tasks);

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addLayout(header);
    layout->addWidget(m_cacheNotice);
    layout->addWidget(m_exportError);
    layout->addWidget(m_exportNote);
    layout->addLayout(figures);
    layout->addWidget(explanation);
    layout->addWidget(m_payout);
    layout->addWidget(energyCard);
    // Only one of these two is shown, and it takes the rest of the height.
    layout->addWidget(m_details, 1);
    layout->addWidget(m_emptyState, 1);

    setReport(EarningsReport{}, false);
    m_hasReport = false;
    updateNotices();
    showEnergy();
}

void EarningsPage::setEnergy(const EnergyUse &energy)
{
    if (m_hasEnergy && energy == m_energyUse)
        return; // every snapshot carries it; it changes at most once a minute
    m_energyUse = energy;
    m_hasEnergy = true;
    showEnergy();
}

void EarningsPage::setTariff(double pricePerKWh, const QString &currency, double creditValue)
{
    m_pricePerKWh = pricePerKWh;
    m_currency = currency;
    m_creditValue = creditValue;
    showEnergy();
}

void EarningsPage::showEnergy()
{
    const QLocale locale;
    const auto kwh = [&locale](double wh) { return tr("%1 kWh").arg(locale.toString(wh / 1000.0, 'f', 2)); };
    const auto money = [&](double value) -> QString {
        return locale.toString(value, 'f', 2) + QLatin1Char(' ') + m_currency;
    };
    if (!m_hasEnergy) {
        m_energy->setText(tr("Energy: not read yet."));
        m_energyNet->hide();
        return;
    }
    if (!m_energyUse.hasReadings) {
        // Unknown is not zero: without NVML power readings nothing can be said about the electricity used.
        m_energy->setText(tr("No GPU power readings: the energy Cohort uses cannot be measured on this computer, "
                             "so earnings are shown without its cost."));
        m_energyNet->hide();
        return;
    }
    m_energy->setText(
        tr("Energy used by the GPUs: today %1 · 7 days %2").arg(kwh(m_energyUse.todayWh), kwh(m_energyUse.weekWh)));
    m_energyNet->show();
    if (m_pricePerKWh <= 0) {
        m_energyNet->setText(
            tr("Set your electricity price in Settings › Account to see what it costs and your earnings net of it."));
        return;
    }
    const double creditsToday = m_report.today.pending + m_report.today.confirmed;
    const double creditsWeek = m_report.last7Days.pending + m_report.last7Days.confirmed;
    const NetEarnings net = netOfEnergy(m_energyUse, creditsToday, creditsWeek, m_pricePerKWh, m_creditValue);
    if (!net.netToday || !net.netWeek) {
        m_energyNet->setText(
            tr("Electricity cost: today %1 · 7 days %2. Set what one credit is worth in Settings › Account "
               "to see earnings net of it.")
                .arg(money(net.costToday), money(net.costWeek)));
        return;
    }
    m_energyNet->setText(
        tr("Earnings net of electricity: today %1 · 7 days %2 (electricity %3 over 7 days; earnings "
           "pending and confirmed, at %4 per credit)")
            .arg(money(*net.netToday), money(*net.netWeek), money(net.costWeek), money(m_creditValue)));
}

EarningsPage::Figure EarningsPage::makeFigure(const QString &caption, const QString &name, QHBoxLayout *row)
{
    auto *card = new QFrame(this);
    card->setFrameShape(QFrame::StyledPanel);
    auto *captionLabel = new QLabel(caption, card);
    Figure figure;
    figure.value = new QLabel(card);
    figure.value->setObjectName(name + QStringLiteral("Earnings"));
    QFont big = figure.value->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    figure.value->setFont(big);
    figure.detail = new QLabel(card);
    figure.detail->setObjectName(name + QStringLiteral("Recent"));
    setMuted(figure.detail);
    auto *layout = new QVBoxLayout(card);
    layout->setSpacing(2);
    layout->addWidget(captionLabel);
    layout->addWidget(figure.value);
    layout->addWidget(figure.detail);
    row->addWidget(card, 1);
    return figure;
}

QString EarningsPage::amount(double value) const
{
    return QLocale().toString(value, 'f', 2) + QLatin1Char(' ') + m_report.unit;
}

void EarningsPage::setReport(const EarningsReport &report, bool fromCache)
{
    m_report = report;
    m_hasReport = true;
    m_hubReachable = !fromCache;
    showFigures();
    fillTaskTable();
    updateChart();
    updateNotices();
    if (m_energy)
        showEnergy(); // the net figures depend on the earnings too
    showPayout();
}

void EarningsPage::setLocalPayoutAddress(const QString &address)
{
    m_localPayoutAddress = address.trimmed();
    showPayout();
}

void EarningsPage::showPayout()
{
    // Only the hub's own word counts here: a report from an older hub does not say, and then nothing is shown.
    if (!m_hasReport || !m_report.payoutAddress) {
        m_payout->hide();
        return;
    }
    const QString onRecord = m_report.payoutAddress->trimmed();
    const QString local = m_localPayoutAddress;
    const auto shown = [](const QString &address) {
        return Settings::payoutAddressProblem(address).isEmpty() ? Settings::checksummedAddress(address) : address;
    };
    QString text;
    if (onRecord.isEmpty() && local.isEmpty())
        text = tr("No payout address yet: the hub credits this node's id. Add one in Settings, Account.");
    else if (onRecord.isEmpty())
        text = tr("The hub has no payout address on record yet; it receives %1 with the next heartbeat (within a "
                  "minute).")
                   .arg(shown(local));
    else if (onRecord.compare(local, Qt::CaseInsensitive) == 0)
        text = tr("Paid to %1, the address the hub has on record.").arg(shown(onRecord));
    else if (local.isEmpty())
        text = tr("The hub still has %1 on record; it removes it with the next heartbeat (within a minute).")
                   .arg(shown(onRecord));
    else
        text = tr("The hub has %1 on record, not the address in Settings (%2); it takes the new one with the next "
                  "heartbeat (within a minute).")
                   .arg(shown(onRecord), shown(local));
    m_payout->setText(text);
    m_payout->show();
}

void EarningsPage::setHubReachable(bool reachable)
{
    m_hubReachable = reachable;
    updateNotices();
}

void EarningsPage::showFigures()
{
    const QLocale locale;
    const auto recent = [&](double today, double week) {
        return tr("Today %1 · 7 days %2").arg(locale.toString(today, 'f', 2), locale.toString(week, 'f', 2));
    };
    const EarningsReport &r = m_report;
    m_pending.value->setText(amount(r.total.pending));
    m_pending.detail->setText(recent(r.today.pending, r.last7Days.pending));
    m_confirmed.value->setText(amount(r.total.confirmed));
    m_confirmed.detail->setText(recent(r.today.confirmed, r.last7Days.confirmed));
    m_refused.value->setText(amount(r.total.refused));
    m_refused.detail->setText(recent(r.today.refused, r.last7Days.refused));
}

void EarningsPage::fillTaskTable()
{
    const QLocale locale;
    m_tasks->setRowCount(int(m_report.tasks.size()));
    for (int row = 0; row < m_report.tasks.size(); ++row) {
        const TaskEarnings &t = m_report.tasks.at(row);
        m_tasks->setItem(row, TaskColumn, new QTableWidgetItem(t.taskId));
        m_tasks->setItem(row, PendingColumn, numberItem(locale.toString(t.amounts.pending, 'f', 2)));
        m_tasks->setItem(row, ConfirmedColumn, numberItem(locale.toString(t.amounts.confirmed, 'f', 2)));
        m_tasks->setItem(row, TokensColumn, numberItem(locale.toString(t.tokens)));
        m_tasks->setItem(row, BatchesColumn, numberItem(locale.toString(t.batches)));
    }
    // Tall enough for the rows (up to 4, then it scrolls) and no taller: the chart deserves the height.
    const int rows = std::clamp(m_tasks->rowCount(), 1, 4);
    m_tasks->setFixedHeight(m_tasks->horizontalHeader()->sizeHint().height() +
                            rows * m_tasks->verticalHeader()->defaultSectionSize() + 2 * m_tasks->frameWidth());
}

void EarningsPage::updateChart()
{
    const auto range = EarningsChart::Range(m_range->currentData().toInt());
    m_chart->setHistory(m_report.history, m_report.generatedAt, range, m_report.unit);
}

void EarningsPage::updateNotices()
{
    const bool empty = !m_hasReport || m_report.isEmpty();
    m_emptyState->setVisible(empty);
    m_details->setVisible(!empty);
    m_range->setVisible(!empty);
    m_exportButton->setEnabled(m_hasReport && !m_report.history.isEmpty());

    m_updated->setVisible(m_hasReport);
    if (m_hasReport)
        m_updated->setText(tr("Last updated %1").arg(display::moment(m_report.generatedAt)));
    // Only a report on screen can be out of date; with none there is nothing to warn about.
    m_cacheNotice->setVisible(m_hasReport && !m_hubReachable);
    if (m_hasReport && !m_hubReachable)
        m_cacheNotice->setText(tr("The hub cannot be reached right now. These are the figures saved on this "
                                  "computer; they update when the hub answers again."));
}

QString EarningsPage::askSavePath()
{
    if (m_savePath)
        return m_savePath();
    const QString name = QStringLiteral("cohort-earnings-%1.csv").arg(QDate::currentDate().toString(Qt::ISODate));
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    QString path = QFileDialog::getSaveFileName(this, tr("Export earnings"), QDir(folder).filePath(name),
                                                tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    return path;
}

void EarningsPage::exportCsvInteractively()
{
    const QString path = askSavePath();
    if (path.isEmpty())
        return;
    const Status written = exportCsv(path);
    if (!written) {
        m_exportNote->hide();
        m_exportError->showError(written.error());
        return;
    }
    m_exportError->clearError();
    m_exportNote->setText(tr("Saved %n hour(s) of history to %1", nullptr, int(m_report.history.size()))
                              .arg(QDir::toNativeSeparators(path)));
    m_exportNote->show();
}

Status EarningsPage::exportCsv(const QString &path)
{
    // QSaveFile: an existing file is replaced only once the new one is complete.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return fail(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    const QByteArray csv = toCsv(m_report).toUtf8();
    if (file.write(csv) != csv.size() || !file.commit())
        return fail(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    return {};
}

} // namespace cohort
