#include "node/TestingHooks.h"

#include "core/Logging.h"

#include <QByteArray>
#include <QDateTime>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <future>

namespace cohort {

namespace {
struct HaltSpec {
    QByteArray point;
    int index = -1;
    int occurrence = 1;
    std::atomic<int> seen{0};
};

// Parsed once; null when the variable is unset (the normal case).
HaltSpec *haltSpec()
{
    static HaltSpec *spec = []() -> HaltSpec * {
        const QByteArray raw = qgetenv("COHORT_TESTING_HALT_AT");
        if (raw.isEmpty())
            return nullptr;
        auto *s = new HaltSpec; // lives as long as the process
        QByteArray rest = raw;
        if (const qsizetype hash = rest.indexOf('#'); hash >= 0) {
            s->occurrence = std::max(1, rest.mid(hash + 1).toInt());
            rest.truncate(hash);
        }
        if (const qsizetype at = rest.indexOf('@'); at >= 0) {
            s->index = rest.mid(at + 1).toInt();
            rest.truncate(at);
        }
        s->point = rest;
        // Loud: a node that parks itself must never be mistaken for a hung one.
        qCWarning(lcEngine).noquote().nospace() << "COHORT_TESTING_HALT_AT=" << QString::fromLatin1(raw)
                                                << ": testing only, this node will stop for good at that point";
        return s;
    }();
    return spec;
}
} // namespace

bool testingHaltArmed()
{
    return haltSpec() != nullptr;
}

void testingHaltPoint(const char *point, int index)
{
    HaltSpec *spec = haltSpec();
    if (!spec || spec->point != point || spec->index != index)
        return;
    if (spec->seen.fetch_add(1) + 1 != spec->occurrence)
        return;
    std::fprintf(stderr, "COHORT_TESTING_HALT_AT: halted at %s (t=%lld)\n",
                 qgetenv("COHORT_TESTING_HALT_AT").constData(),
                 static_cast<long long>(QDateTime::currentMSecsSinceEpoch()));
    std::fflush(stderr);
    // Parked until the test kills the process: a future nobody will ever fulfil.
    std::promise<void> never;
    never.get_future().wait();
}

bool testingGpusOnCpu()
{
    return qEnvironmentVariable("COHORT_TESTING_GPUS_ON_CPU") == QLatin1String("1");
}

} // namespace cohort
