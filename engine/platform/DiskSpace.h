#pragma once
// How many bytes a folder's filesystem still gives this process, asked of the filesystem itself (statvfs,
// GetDiskFreeSpaceExW) rather than read off a mount table: a mount table can be missing or wrong (a chroot, some
// containers), and a free-space check that cannot tell must refuse, never let a download through.
#include "core/Expected.h"
#include <QString>

namespace cohort {

// Bytes available to an unprivileged writer on the filesystem that holds `folder` (which must exist), or why that
// cannot be told. COHORT_TESTING_FREE_DISK_BYTES overrides the answer for tests ("unknown" makes it fail).
Expected<qint64> availableDiskBytes(const QString &folder);

} // namespace cohort
