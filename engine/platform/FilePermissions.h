#pragma once
// Restricts a file to its owner (0600 on POSIX; on Windows the per-user profile folder already is).
#include "core/Expected.h"

namespace cohort {

Status restrictToOwner(const QString &path);
// Writes `bytes` to `path` atomically (a temporary file in the same folder, flushed to disk, renamed over the old
// one), readable by the owner only from the moment the temporary file exists: for secrets (keys, tokens).
Status writeOwnerOnlyFile(const QString &path, const QByteArray &bytes);
bool isOwnerOnly(const QString &path);

} // namespace cohort
