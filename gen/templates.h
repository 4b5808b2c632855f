/* templates: the RTL templates of rtl_templates/, embedded at build time. */
#ifndef SAGEN_TEMPLATES_H
#define SAGEN_TEMPLATES_H

typedef struct template {
  const char *name;   /* file name, e.g. "sagen_pe.v"; NULL ends the table */
  const char *text;
} template_t;

extern const template_t templates[];  /* every rtl_templates .v file */
extern const template_t sim_files[];  /* sim/: shim, C API header, replay testbench */

#endif
