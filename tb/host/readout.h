/* readout: the words of an output tile as the host reads them back (which words, at which
 * output SRAM addresses, holding which pixels and filters) and their placement into the output
 * view, recorded in a drive_reads_t where asked (drive_reads_apply and drive_reads_free,
 * driver.h, replay a record). */
#ifndef SAGEN_HOST_READOUT_H
#define SAGEN_HOST_READOUT_H

#include <stdint.h>

#include "cfg.h"
#include "driver.h"
#include "plan.h"

/* Words the host reads of tile OT: one per real pixel and filter group, or with column groups
 * every word the array wrote (those without a real pixel are skipped as they come). */
long readout_words(const cfg_t *c, const out_tile_t *ot);

/* The filter group of read-out word J of tile OT (0 for col2im's words). */
long readout_kg(const cfg_t *c, const out_tile_t *ot, long j);

/* The output SRAM address of read-out word J of tile OT: without column groups the words of
 * real pixels, in the virtual-width layout the array wrote; with groups, the words in order. */
long readout_addr(const cfg_t *c, const out_tile_t *ot, long j);

/* The pixels (row, column of the tile) that read-out word J of OT holds, one per column group
 * (-1: none there), into PY and PX (each NULL or room for ot->groups); returns how many are
 * real. */
int readout_pixels(const cfg_t *c, const out_tile_t *ot, long j, long *py, long *px);

/* Place WORD, read-out word J of tile OT (out_word_bits, little-end uint32), into output view
 * YV: each real pixel's filters (those inside their extent, view_has) get their acc_bits
 * field. With RD (may be NULL), also record where they went (an entry per run of columns, or
 * per column for a view with per-filter tables) and, if RD->capture, the word itself. Returns
 * 0, or 1 if RD could not grow (out of memory; YV untouched). */
int readout_place(const cfg_t *c, const out_tile_t *ot, long j, const view_t *yv,
                  const uint32_t *word, drive_reads_t *rd);

#endif
