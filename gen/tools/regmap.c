/* regmap: write one rendering of the register map (gen/regmap.c) to a file. The build runs it
 * before compiling the host driver, which includes the C header it writes.
 *
 * Usage: regmap verilog|c|markdown OUT */
#include <stdio.h>
#include <string.h>

#include "regmap.h"

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: regmap verilog|c|markdown OUT\n");
    return 2;
  }
  void (*emit)(FILE *) = !strcmp(argv[1], "verilog") ? regmap_emit_verilog
                         : !strcmp(argv[1], "c")     ? regmap_emit_c
                         : !strcmp(argv[1], "markdown") ? regmap_emit_markdown : NULL;
  if (!emit) {
    fprintf(stderr, "regmap: '%s' is not a format: verilog, c or markdown\n", argv[1]);
    return 2;
  }
  FILE *f = fopen(argv[2], "w");
  if (!f) {
    perror(argv[2]);
    return 1;
  }
  emit(f);
  if (fclose(f) != 0) {
    perror(argv[2]);
    return 1;
  }
  return 0;
}
