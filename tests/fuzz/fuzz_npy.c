/* fuzz_npy: libFuzzer target of the .npy reader. Any byte string goes through npy_parse
 * exactly as `sagen sim --input X.npy` would parse a file's bytes; a tensor it accepts is
 * checked for a sane shape and then freed. Built by tests/fuzz/run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "tensor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  tensor_t t;
  char err[512];
  memset(&t, 0x5a, sizeof t);  /* npy_parse overwrites *T without freeing it */
  err[0] = '\0';
  int rc = npy_parse(data, size, &t, err, sizeof err);
  if (rc == 0) {
    if (t.ndim < 1 || t.ndim > 4) abort();
    long n = tensor_numel(&t);
    if (n < 0) abort();
    /* every element was read from the buffer: touch them all (ASan checks the allocation) */
    volatile uint64_t sum = 0;
    for (long i = 0; i < n; i++) sum += (uint64_t)t.data[i];
    (void)sum;
    tensor_free(&t);
    tensor_free(&t);  /* documented as a no-op */
  } else {
    if (rc != 1 || t.data != NULL) abort();  /* *T is left empty */
    /* the message is one terminated line */
    if (memchr(err, '\0', sizeof err) == NULL || strchr(err, '\n') || err[0] == '\0') abort();
  }
  return 0;
}
