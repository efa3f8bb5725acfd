// The module's functions are `static inline`, in include/RivuletFutex.h; a C target
// needs one source file.
#include "RivuletFutex.h"
