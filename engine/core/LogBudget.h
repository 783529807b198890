#pragma once
// A bound on how many lines of one kind a log prints per window (cohortd's terminal and journal): the first few
// of a kind are printed, the rest are counted and said as one line when the window ends. A flood of one warning
// then costs a handful of lines a minute and still shows how many there were.
#include <QHash>
#include <QList>
#include <QString>

namespace cohort {

class LogBudget {
public:
    static constexpr int kMaxKinds = 256; // kinds beyond this share one budget ("other")

    LogBudget(int linesPerWindow, qint64 windowMs);

    // True when a line of this kind may be printed now; otherwise it is counted against its window.
    bool admit(const QString &kind, qint64 nowMs);

    struct Suppressed {
        QString kind;
        int count = 0;
    };
    // The kinds whose window has ended with lines held back, each once; their windows start afresh.
    QList<Suppressed> takeEnded(qint64 nowMs);
    // Every kind with lines held back, ended or not (the program is about to exit).
    QList<Suppressed> takeAll();

    int linesPerWindow() const { return m_lines; }
    qint64 windowMs() const { return m_windowMs; }

private:
    struct Window {
        qint64 startMs = 0;
        int printed = 0;
        int held = 0;
    };
    int m_lines;
    qint64 m_windowMs;
    QHash<QString, Window> m_windows;
};

} // namespace cohort
