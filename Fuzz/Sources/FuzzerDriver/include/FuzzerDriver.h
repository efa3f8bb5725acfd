#ifndef RIVULET_FUZZER_DRIVER_H
#define RIVULET_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for programs that bring their own `main`: parses the libFuzzer
/// options in argv and runs `callback` on each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
