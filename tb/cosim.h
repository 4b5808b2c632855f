/* cosim: the `sagen sim` command: tensors in, layer through the simulated accelerator, every
 * element checked against the golden model, the performance report out. */
#ifndef SAGEN_COSIM_H
#define SAGEN_COSIM_H

#include <stdio.h>

/* Run `sagen sim ARGS...` (argv[0] = "sim"). Returns the process exit status: 0 success, 1 bad
 * input or a mismatch, 2 bad usage. */
int cosim_main(int argc, char **argv);

/* Print the usage of `sagen sim`. */
void cosim_usage(FILE *out);

#endif
