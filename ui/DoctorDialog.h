#pragma once
// Help › Check this computer…: runs `cohortd --doctor --json` on the app's own settings and data folder (the checks
// need LibTorch, which the GUI process never loads) and shows each finding with its fix. The program's output is
// read strictly (core/DoctorReport); a program that fails, hangs (60 s) or prints something else is said plainly.
#include "core/DoctorReport.h"

#include <QDialog>
#include <QStringList>

class QLabel;
class QProcess;
class QProgressBar;
class QPushButton;
class QGridLayout;
class QScrollArea;

namespace cohort {

class DoctorDialog : public QDialog {
    Q_OBJECT
public:
    // program: cohortd's path; arguments: what it needs besides --doctor --json (--settings, --data-dir).
    DoctorDialog(QString program, QStringList arguments, QWidget *parent = nullptr);
    ~DoctorDialog() override;

    void run(); // (again); the dialog shows "Checking…" until the report is in
    bool isRunning() const;
    int findingCount() const;
    QString findingText(int row) const; // "Clock: failed — … Fix: …", for tests and Copy
    QString statusText() const;

    // Where cohortd is, seen from the running app: next to it (installed), in the build tree, or on PATH.
    static QString findCohortd();

Q_SIGNALS:
    void reportShown();

private:
    void onFinished();
    void showReport(const DoctorReport &report);
    void showError(const QString &text);
    void copyToClipboard() const;

    QString m_program;
    QStringList m_arguments;
    QProcess *m_process = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_busy = nullptr;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_list = nullptr; // one row per finding: icon, title, what was found and its fix (labels wrap)
    QGridLayout *m_rows = nullptr;
    void clearRows();
    QPushButton *m_again = nullptr;
    DoctorReport m_report;
};

} // namespace cohort
