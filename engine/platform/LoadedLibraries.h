#pragma once
// The shared libraries this process has loaded, by file path: which BLAS LibTorch runs on is decided by the dynamic
// linker (Debian's libblas.so.3 alternative), not by the build, so only the running process can tell (/proc/self/maps
// on Linux, the module list on Windows).
#include <QStringList>

namespace cohort {

// Paths of the loaded libraries whose file name contains `part` (case-insensitive), each once; empty when none or
// when this OS cannot list them.
QStringList loadedLibraries(const QString &part);

// The file of the loaded library a call to the C symbol `symbol` would reach ("sgemm_": the BLAS every matrix product
// runs on when several are loaded, as with the reference BLAS put first on the library path beside OpenBLAS's
// LAPACK); empty when no loaded library defines it or this OS cannot tell.
QString libraryDefining(const char *symbol);

// Which BLAS a loaded library list names, for people: "OpenBLAS (…path…)", "Intel MKL (…)", "reference BLAS (…)";
// empty when none of them is a BLAS. `reference` is set when it is the reference implementation (about 8x slower).
QString describeBlas(const QStringList &libraries, bool *reference);

} // namespace cohort
