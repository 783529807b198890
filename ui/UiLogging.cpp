#include "UiLogging.h"

Q_LOGGING_CATEGORY(lcUi, "cohort.ui", QtInfoMsg)
