#pragma once
// Driving cohort-collective-peer (tests/support/CollectivePeer.cpp) from a test: where it is, its master, and the
// lines its peers print.
#include "TestSupport.h"

#include <QDir>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

namespace cohort::test {

inline QString collectivePeerProgram()
{
    return QDir(qEnvironmentVariable("COHORT_BUILD_DIR"))
        .filePath(QStringLiteral("tests/integration/cohort-collective-peer"));
}

// A master on 127.0.0.1 (a free port, written to *port); null if it did not come up.
inline std::unique_ptr<ChildProcess> startCollectiveMaster(uint16_t *port, const QStringList &extra = {})
{
    auto master = std::make_unique<ChildProcess>(
        collectivePeerProgram(),
        QStringList{QStringLiteral("master"), QStringLiteral("--port"), QStringLiteral("0")} + extra);
    if (!master->start() || !master->waitForOutput(QStringLiteral("master listening"), 10'000))
        return {};
    static const QRegularExpression re(QStringLiteral("master listening (\\d+)"));
    *port = uint16_t(re.match(master->output()).captured(1).toUInt());
    return master;
}

struct OpLine {
    int op = -1;
    int world = 0;
    QList<uint32_t> ring;
    QString hash;
};

// The last "op N ok ..." line of a peer's output.
inline std::optional<OpLine> lastOk(const QString &output)
{
    static const QRegularExpression re(QStringLiteral("^op (\\d+) ok world (\\d+) ring ([0-9,]+) hash ([0-9a-f]+)"),
                                       QRegularExpression::MultilineOption);
    std::optional<OpLine> last;
    auto it = re.globalMatch(output);
    while (it.hasNext()) {
        const auto m = it.next();
        OpLine line;
        line.op = m.captured(1).toInt();
        line.world = m.captured(2).toInt();
        for (const QString &id : m.captured(3).split(QLatin1Char(',')))
            line.ring << id.toUInt();
        line.hash = m.captured(4);
        last = line;
    }
    return last;
}

// The id the master gave the peer ("peer N admitted"), 0 before that.
inline uint32_t admittedId(const QString &output)
{
    static const QRegularExpression re(QStringLiteral("peer (\\d+) admitted"));
    const auto m = re.match(output);
    return m.hasMatch() ? m.captured(1).toUInt() : 0;
}

} // namespace cohort::test
