#pragma once
// Restricts a file to its owner (0600 on POSIX; on Windows the per-user profile folder already is).
#include "core/Expected.h"

namespace cohort {

Status restrictToOwner(const QString &path);
bool isOwnerOnly(const QString &path);

} // namespace cohort
