#pragma once
// Which boot of the computer this is. Data written through the page cache (or a memory map) survives a
// crash of the process but not a power cut or reboot; a record stamped with the boot id tells a later run
// whether the bytes it claims could have been lost, so it can re-check them instead of syncing every write.
#include <QByteArray>

namespace cohort {

// A token that stays the same until the machine restarts: Linux boot_id, the boot time elsewhere. Empty
// where neither is known, which callers treat as "maybe another boot". COHORT_TESTING_BOOT_ID overrides it
// so tests can simulate a reboot.
QByteArray currentBootId();

} // namespace cohort
