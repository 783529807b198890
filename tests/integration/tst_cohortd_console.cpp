// cohortd's terminal, as a person and a journal see it: two minutes on the embedded network under a real
// pseudo-terminal (forkpty) and, at the same time, with stdout and stderr in pipes. Each must stay readable —
// a bounded number of lines, the live status line at the bottom on the terminal, warnings still shown, routine
// work summarised once a minute — and --verbose must bring the per-batch detail back.
#include "TestSupport.h"

#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cohort::test;

namespace {
// A program on the slave end of a pseudo-terminal (so isatty() is true for its stdout and stderr); the test reads
// the master end.
class TerminalProcess {
public:
    ~TerminalProcess()
    {
        if (m_pid > 0 && !m_exited) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        if (m_master >= 0)
            ::close(m_master);
    }
    bool start(const QString &program, const QStringList &arguments)
    {
        winsize size{};
        size.ws_col = 160;
        size.ws_row = 40;
        QList<QByteArray> args{program.toLocal8Bit()};
        for (const QString &a : arguments)
            args.append(a.toLocal8Bit());
        std::vector<char *> argv;
        for (QByteArray &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        m_pid = ::forkpty(&m_master, nullptr, nullptr, &size);
        if (m_pid == 0) {
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        if (m_pid < 0)
            return false;
        ::fcntl(m_master, F_SETFL, ::fcntl(m_master, F_GETFL) | O_NONBLOCK);
        return true;
    }
    // Reads what is there (waiting up to waitMs for something) and notes whether the program has exited.
    void pump(int waitMs)
    {
        if (m_master >= 0) {
            pollfd p{m_master, POLLIN, 0};
            if (::poll(&p, 1, waitMs) > 0) {
                char buffer[65536];
                for (;;) {
                    const ssize_t n = ::read(m_master, buffer, sizeof buffer);
                    if (n > 0) {
                        m_output.append(buffer, n);
                        continue;
                    }
                    break; // EAGAIN, or EIO once the program has gone and the slave is closed
                }
            }
        }
        if (!m_exited) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_exited = true;
                m_exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
        }
    }
    bool exited() const { return m_exited; }
    int exitCode() const { return m_exitCode; }
    const QByteArray &output() const { return m_output; }

private:
    pid_t m_pid = -1;
    int m_master = -1;
    bool m_exited = false;
    int m_exitCode = -1;
    QByteArray m_output;
};

// What a terminal shows once its control codes have done their work: the text of each row. "\r" moves to the
// row's start (later text overwrites), "\033[K" erases from the cursor to the row's end, "\n" goes to the next row
// (the pseudo-terminal turns each "\n" into "\r\n").
QStringList screenRows(const QByteArray &raw)
{
    QStringList rows;
    QString row;
    qsizetype cursor = 0;
    const QString text = QString::fromUtf8(raw);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\033') && text.mid(i, 3) == QStringLiteral("\033[K")) {
            row.truncate(cursor);
            i += 2;
        } else if (c == QLatin1Char('\r')) {
            cursor = 0;
        } else if (c == QLatin1Char('\n')) {
            rows.append(row);
            row.clear();
            cursor = 0;
        } else {
            if (cursor < row.size())
                row[cursor] = c;
            else
                row.append(c);
            ++cursor;
        }
    }
    if (!row.isEmpty())
        rows.append(row);
    return rows;
}

QStringList cohortdArguments(const QTemporaryDir &dir, const QString &name, int seconds)
{
    return {QStringLiteral("--data-dir"),      dir.filePath(name),
            QStringLiteral("--settings"),      dir.filePath(name + QStringLiteral(".ini")),
            QStringLiteral("--task"),          QStringLiteral("arith-rl"),
            QStringLiteral("--duration"),      QString::number(seconds),
            QStringLiteral("--no-control-api")};
}
} // namespace

class TestCohortdConsole : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void twoMinutesOnATerminalAndInAPipe()
    {
        constexpr int kSeconds = 120;
        TerminalProcess terminal;
        QVERIFY(terminal.start(programPath(QStringLiteral("cohortd")),
                               cohortdArguments(m_dir, QStringLiteral("tty"), kSeconds)));
        ChildProcess piped(programPath(QStringLiteral("cohortd")),
                           cohortdArguments(m_dir, QStringLiteral("pipe"), kSeconds));
        QVERIFY(piped.start());

        bool editedSettings = false;
        QDeadlineTimer deadline((kSeconds + 60) * 1000);
        while (!(terminal.exited() && piped.process().state() == QProcess::NotRunning) && !deadline.hasExpired()) {
            terminal.pump(200);
            piped.process().waitForReadyRead(50);
            if (!editedSettings && terminal.output().contains("First batch accepted")) {
                // A broken edit of the settings file: its warning must reach the screen, status line or not.
                QSettings file(m_dir.filePath(QStringLiteral("tty.ini")), QSettings::IniFormat);
                file.setValue(QStringLiteral("schedule/windows"), QStringList{QStringLiteral("whenever")});
                editedSettings = true;
            }
        }
        terminal.pump(0);
        QVERIFY2(terminal.exited(), terminal.output().right(3000).constData());
        QCOMPARE(terminal.exitCode(), 0);
        QVERIFY2(editedSettings, terminal.output().right(3000).constData()); // a batch was accepted within two minutes

        const QByteArray raw = terminal.output();
        const QStringList rows = screenRows(raw);
        const QString screen = rows.join(QLatin1Char('\n'));
        // What the old cohortd printed here in two minutes: several thousand lines, the status line scrolled away.
        QVERIFY2(rows.size() <= 40, qPrintable(QStringLiteral("%1 rows:\n%2").arg(rows.size()).arg(screen)));
        QVERIFY2(raw.count('\r') > kSeconds / 2, "the status line is redrawn in place about once a second");
        QVERIFY2(QRegularExpression(QStringLiteral("^\\[0[12]:\\d\\d\\] \\S")).match(rows.last()).hasMatch(),
                 qPrintable(QStringLiteral("the last row is not the status line: ") + rows.last()));
        QVERIFY2(screen.contains(QStringLiteral("cohort.settings warning: ignoring invalid setting")),
                 qPrintable(screen));
        QVERIFY2(screen.contains(QStringLiteral("First batch accepted")), qPrintable(screen));
        QVERIFY2(screen.contains(QStringLiteral("accepted in the last minute")), qPrintable(screen)); // the summary
        QVERIFY2(!screen.contains(QStringLiteral("Batch accepted:")), qPrintable(screen));            // not each batch
        QVERIFY2(!screen.contains(QStringLiteral("awaiting the hub's answer")), qPrintable(screen)); // nor info logging
        QVERIFY(screen.contains(QStringLiteral("cohortd: stopping (ran for 120 s)")));

        // Without a terminal: no control codes, the status once a minute or on a change, and few lines a minute.
        QVERIFY(piped.process().state() == QProcess::NotRunning || piped.process().waitForFinished(30'000));
        QCOMPARE(piped.process().exitCode(), 0);
        const QString out = piped.output();
        const QString err = piped.errors();
        QVERIFY(!out.contains(QLatin1Char('\r')) && !out.contains(QStringLiteral("\033[")));
        const qsizetype outLines = out.count(QLatin1Char('\n'));
        const qsizetype errLines = err.count(QLatin1Char('\n'));
        QVERIFY2(outLines >= 2 && outLines <= 2 * 13 + 1, qPrintable(out)); // a change at most every 5 s, else a minute
        QVERIFY2(errLines <= 40, qPrintable(QStringLiteral("%1 lines:\n%2").arg(errLines).arg(err)));
        QVERIFY2(err.contains(QStringLiteral("accepted in the last minute")), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("Batch accepted:")), qPrintable(err));
        qInfo("terminal: %lld rows; pipe: %lld status lines, %lld event lines in %d s", qlonglong(rows.size()),
              qlonglong(outLines), qlonglong(errLines), kSeconds);
    }

    // --verbose: each batch and the engine's info logging, as before the summaries.
    void verboseBringsTheDetailBack()
    {
        ChildProcess node(programPath(QStringLiteral("cohortd")),
                          cohortdArguments(m_dir, QStringLiteral("verbose"), 300) << QStringLiteral("--verbose"));
        QVERIFY(node.start());
        QVERIFY2(node.waitForError(QStringLiteral("Batch accepted:"), 120'000), qPrintable(node.errors().right(3000)));
        QVERIFY(node.errors().contains(QStringLiteral("cohort.engine info:")));
        int code = -1;
        QVERIFY(node.terminateAndWait(20'000, &code));
        QCOMPARE(code, 0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCohortdConsole)
#include "tst_cohortd_console.moc"
