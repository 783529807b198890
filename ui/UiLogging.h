#pragma once
// Logging for the desktop shell; enable with QT_LOGGING_RULES="cohort.ui.debug=true".
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcUi)
