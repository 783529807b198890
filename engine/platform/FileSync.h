#pragma once
// Forces a file's written data to stable storage (fsync / FlushFileBuffers), so progress records written
// afterwards never claim bytes a power cut could take back.
class QFileDevice;

namespace cohort {

bool syncToDisk(QFileDevice &file);

} // namespace cohort
