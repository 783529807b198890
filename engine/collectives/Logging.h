#pragma once
// The collectives' logging category: QT_LOGGING_RULES="cohort.collectives.debug=true" for the details.
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcCollectives)
