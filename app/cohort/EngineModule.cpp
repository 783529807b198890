// The desktop app's engine module (libcohort_engine_parts.so): the engine with LibTorch, loaded by the app once its
// first window is on screen (api/EnginePartsLoader). Only this entry point is looked up by name.
#include "assembly/BuiltinEngineParts.h"

#include <QtGlobal>

extern "C" Q_DECL_EXPORT const cohort::EngineParts *cohort_engine_parts()
{
    return &cohort::builtinEngineParts();
}
