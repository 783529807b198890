#pragma once
// Durable files: force written data to stable storage (fsync / _commit), and reserve real disk blocks up front.
#include "core/Expected.h"

class QFile;
class QFileDevice;

namespace cohort {

// Flushes Qt's buffer, then forces the data to disk. Progress records written afterwards never claim bytes
// a power cut could take back.
bool syncToDisk(QFileDevice &file);
// The same for a raw handle (QFileDevice::handle()), callable from a worker thread while the file stays open.
bool syncHandle(int handle);
// Makes `file` exactly `size` bytes with every block allocated (posix_fallocate on Linux; NTFS allocates on
// extend), so later writes, including through a memory map, cannot fail for lack of space. Existing bytes
// are kept. Fails with a clear "disk full" message when the space is not there.
Status preallocate(QFile &file, qint64 size);

} // namespace cohort
