#pragma once
// The one-line progress text cohortd prints: the same state, reason and figures as the tray and dashboard.
#include "core/EngineSnapshot.h"

namespace cohort {

QString statusLine(const EngineSnapshot &snapshot, qint64 elapsedSeconds);
QString humanBytes(qint64 bytes);

} // namespace cohort
