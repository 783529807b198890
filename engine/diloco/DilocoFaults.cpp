#include "diloco/DilocoFaults.h"

#include <QString>

namespace cohort::diloco {

DilocoCheat testingDilocoCheat()
{
    static const DilocoCheat cheat = [] {
        const QString name = qEnvironmentVariable("COHORT_TEST_DILOCO_ATTACK");
        if (name == QLatin1String("idle"))
            return DilocoCheat::Idle;
        if (name == QLatin1String("noise"))
            return DilocoCheat::Noise;
        if (name == QLatin1String("copy"))
            return DilocoCheat::Copy;
        return DilocoCheat::None;
    }();
    return cheat;
}

} // namespace cohort::diloco
