// The hints are static inline functions in include/MemoryHints.h; SwiftPM builds a C target
// from at least one source file.
#include "MemoryHints.h"
