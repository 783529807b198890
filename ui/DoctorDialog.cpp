#include "ui/DoctorDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardPaths>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

namespace cohort {

namespace {
constexpr int kTimeoutMs = 60'000;
constexpr qint64 kMaxOutputBytes = kMaxDoctorReportBytes + 1024;

QString outcomeText(DoctorOutcome outcome)
{
    switch (outcome) {
    case DoctorOutcome::Ok: return DoctorDialog::tr("OK");
    case DoctorOutcome::Warning: return DoctorDialog::tr("Look at this");
    case DoctorOutcome::Failed: return DoctorDialog::tr("Fix this");
    case DoctorOutcome::Skipped: return DoctorDialog::tr("Not needed here");
    }
    return {};
}

QIcon outcomeIcon(DoctorOutcome outcome)
{
    QStyle *style = QApplication::style();
    switch (outcome) {
    case DoctorOutcome::Ok: return style->standardIcon(QStyle::SP_DialogApplyButton);
    case DoctorOutcome::Warning: return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case DoctorOutcome::Failed: return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case DoctorOutcome::Skipped: return style->standardIcon(QStyle::SP_MessageBoxInformation);
    }
    return {};
}
} // namespace

QString DoctorDialog::findCohortd()
{
#ifdef Q_OS_WIN
    const QString name = QStringLiteral("cohortd.exe");
#else
    const QString name = QStringLiteral("cohortd");
#endif
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString &candidate : {here.filePath(name), here.filePath(QStringLiteral("../cohortd/") + name)})
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("cohortd"));
}

DoctorDialog::DoctorDialog(QString program, QStringList arguments, QWidget *parent)
    : QDialog(parent),
      m_program(std::move(program)),
      m_arguments(std::move(arguments))
{
    setWindowTitle(tr("Check this computer"));
    setObjectName(QStringLiteral("doctorDialog"));
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0); // busy: the checks take a few seconds (the hub's connect-back waits up to 8)
    m_busy->setTextVisible(false);
    // Labels in a grid rather than a table: the fix, the part a person acts on, must never be cut off.
    m_list = new QWidget;
    m_list->setObjectName(QStringLiteral("doctorFindings"));
    m_rows = new QGridLayout(m_list);
    m_rows->setColumnStretch(2, 1);
    m_rows->setVerticalSpacing(10);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setWidget(m_list);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_again = buttons->addButton(tr("Check again"), QDialogButtonBox::ActionRole);
    QPushButton *copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    connect(m_again, &QPushButton::clicked, this, &DoctorDialog::run);
    connect(copy, &QPushButton::clicked, this, &DoctorDialog::copyToClipboard);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_busy);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(buttons);
    resize(900, 560);
}

DoctorDialog::~DoctorDialog()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill(); // closing the dialog ends the check: nothing waits for its answer any more
        m_process->waitForFinished(2000);
    }
}

bool DoctorDialog::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void DoctorDialog::run()
{
    if (isRunning())
        return;
    clearRows();
    m_report = {};
    if (m_program.isEmpty()) {
        showError(tr("cohortd, which runs the checks, was not found next to Cohort. Reinstall Cohort."));
        return;
    }
    delete m_process;
    m_process = new QProcess(this);
    m_process->setProgram(m_program);
    m_process->setArguments(QStringList{QStringLiteral("--doctor"), QStringLiteral("--json")} + m_arguments);
    connect(m_process, &QProcess::finished, this, &DoctorDialog::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            showError(tr("cohortd could not be started (%1): %2").arg(m_program, m_process->errorString()));
    });
    QTimer::singleShot(kTimeoutMs, m_process, [this] {
        if (isRunning()) {
            m_process->kill();
            showError(tr("The checks did not finish within a minute."));
        }
    });
    m_status->setText(tr("Checking this computer… (the hub's answers can take a few seconds)"));
    m_busy->show();
    m_again->setEnabled(false);
    m_process->start();
}

void DoctorDialog::onFinished()
{
    if (m_process->exitStatus() != QProcess::NormalExit) {
        if (m_busy->isVisible()) // not already said (the time limit)
            showError(tr("cohortd stopped before its report was complete."));
        return;
    }
    // Exit code 1 means "something to fix": the report says what. Anything but a report is an error.
    const QByteArray out = m_process->read(kMaxOutputBytes);
    const QByteArray line = out.left(out.indexOf('\n') < 0 ? out.size() : out.indexOf('\n'));
    const auto report = parseDoctorReport(line);
    if (!report) {
        const QString why = QString::fromUtf8(m_process->readAllStandardError().left(600)).trimmed();
        showError(tr("cohortd's report could not be read (%1).%2")
                      .arg(report.error(), why.isEmpty() ? QString() : QStringLiteral(" ") + why));
        return;
    }
    showReport(*report);
}

void DoctorDialog::showReport(const DoctorReport &report)
{
    m_report = report;
    m_busy->hide();
    m_again->setEnabled(true);
    clearRows();
    int row = 0;
    for (const DoctorFinding &f : report.findings) {
        auto *icon = new QLabel(m_list);
        icon->setPixmap(outcomeIcon(f.outcome).pixmap(20, 20));
        icon->setToolTip(outcomeText(f.outcome));
        auto *title = new QLabel(
            QStringLiteral("<b>%1</b><br>%2").arg(f.title.toHtmlEscaped(), outcomeText(f.outcome).toHtmlEscaped()),
            m_list);
        title->setTextFormat(Qt::RichText); // only our own words, escaped
        const bool needsFix =
            !f.fix.isEmpty() && (f.outcome == DoctorOutcome::Failed || f.outcome == DoctorOutcome::Warning);
        auto *found = new QLabel(needsFix ? tr("%1\nFix: %2").arg(f.detail, f.fix) : f.detail, m_list);
        found->setTextFormat(Qt::PlainText); // another program's words: text, never markup
        found->setWordWrap(true);
        found->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_rows->addWidget(icon, row, 0, Qt::AlignTop);
        m_rows->addWidget(title, row, 1, Qt::AlignTop);
        m_rows->addWidget(found, row, 2, Qt::AlignTop);
        ++row;
    }
    m_rows->setRowStretch(row, 1);
    const int failed = report.count(DoctorOutcome::Failed);
    const int warnings = report.count(DoctorOutcome::Warning);
    if (failed == 1)
        m_status->setText(tr("1 thing keeps Cohort from working here; it says how to fix it."));
    else if (failed > 1)
        m_status->setText(tr("%1 things keep Cohort from working here; each says how to fix it.").arg(failed));
    else if (warnings == 1)
        m_status->setText(tr("Cohort can work here; 1 thing could be better."));
    else if (warnings > 1)
        m_status->setText(tr("Cohort can work here; %1 things could be better.").arg(warnings));
    else
        m_status->setText(tr("Everything Cohort needs is in place."));
    Q_EMIT reportShown();
}

void DoctorDialog::showError(const QString &text)
{
    m_busy->hide();
    m_again->setEnabled(true);
    m_status->setText(text);
    Q_EMIT reportShown();
}

int DoctorDialog::findingCount() const
{
    return int(m_report.findings.size());
}

QString DoctorDialog::findingText(int row) const
{
    if (row < 0 || row >= m_report.findings.size())
        return {};
    const DoctorFinding &f = m_report.findings.at(row);
    const bool needsFix =
        !f.fix.isEmpty() && (f.outcome == DoctorOutcome::Failed || f.outcome == DoctorOutcome::Warning);
    return QStringLiteral("%1: %2 — %3")
        .arg(f.title, outcomeText(f.outcome), needsFix ? tr("%1\nFix: %2").arg(f.detail, f.fix) : f.detail);
}

void DoctorDialog::clearRows()
{
    while (QLayoutItem *item = m_rows->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

QString DoctorDialog::statusText() const
{
    return m_status->text();
}

void DoctorDialog::copyToClipboard() const
{
    QStringList lines{m_status->text()};
    for (int row = 0; row < findingCount(); ++row)
        lines << findingText(row);
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

} // namespace cohort
