#pragma once
// What cohortd writes to its terminal or journal. On a terminal: one status line that updates in place, with
// warnings, errors and milestones printed above it; in a pipe or journal: the status when the state changes (at
// most every 5 s) or once a minute. Either way each kind of line (an event category and severity, a logging
// category) is held to a few lines a minute, the rest counted ("… 14 more not shown"); routine events (each batch)
// and the engine's info logging appear only with --verbose (or QT_LOGGING_RULES). Qt's messages from any thread
// come through installMessageHandler(); all writes hold one lock so lines never interleave.
#include "core/EngineEvent.h"
#include "core/LogBudget.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QMutex>
#include <QString>
#include <cstdio>

namespace cohort {

class ConsoleOutput {
public:
    struct Options {
        bool terminal = false; // stdout is a terminal: the status line is redrawn in place
        bool verbose = false;  // everything, unbounded
        int linesPerKindPerMinute = 5;
    };
    explicit ConsoleOutput(Options options, FILE *out = stdout, FILE *err = stderr);
    ~ConsoleOutput();

    // Routes Qt's messages (qCWarning, qInfo, …) here until this object is destroyed; in quiet mode the engine's
    // info-level categories are switched off (QT_LOGGING_RULES, read after this, can switch them back on).
    void installMessageHandler();

    void event(const EngineEvent &event);
    void note(const QString &text);        // cohortd's own words ("stopping (signal 15)"): always printed
    void status(const QString &line);      // the progress line: in place on a terminal, else as given
    void jsonLine(const QByteArray &json); // --json: one status object per line on stdout, never bounded
    // Once a second: says how many lines of each kind the last minute held back.
    void tick();
    // Before exit: the counts not yet said, and the status line's newline on a terminal.
    void finish();

    void qtMessage(QtMsgType type, const char *category, const QString &message);

private:
    void printLine(FILE *stream, const QByteArray &line); // with the lock held
    void sayHeld(const QList<LogBudget::Suppressed> &held);
    qint64 nowMs() const { return m_clock.elapsed(); }

    Options m_options;
    FILE *m_out;
    FILE *m_err;
    QMutex m_mutex;
    LogBudget m_budget;
    QElapsedTimer m_clock;
    QByteArray m_statusLine; // what the terminal shows at its bottom now
    bool m_installed = false;
};

// The kind a line is bounded by ("rollouts warning", "cohort.net warning").
QString lineKind(const QString &category, const QString &severity);

} // namespace cohort
