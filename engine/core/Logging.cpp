#include "core/Logging.h"

Q_LOGGING_CATEGORY(lcEngine, "cohort.engine", QtInfoMsg)
Q_LOGGING_CATEGORY(lcNet, "cohort.net", QtInfoMsg)
Q_LOGGING_CATEGORY(lcHub, "cohort.hub", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSettings, "cohort.settings", QtInfoMsg)
Q_LOGGING_CATEGORY(lcPlatform, "cohort.platform", QtInfoMsg)
Q_LOGGING_CATEGORY(lcStore, "cohort.store", QtInfoMsg)
