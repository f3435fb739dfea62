// The stream is static inline functions in include/LineLZ4.h (see there why); SwiftPM builds a
// C target from at least one source file.
#include "LineLZ4.h"
