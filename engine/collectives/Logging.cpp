#include "collectives/Logging.h"

Q_LOGGING_CATEGORY(lcCollectives, "cohort.collectives", QtInfoMsg)
