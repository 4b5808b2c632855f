/* replay: a driver's run again in Icarus Verilog, the output words it read returned. */
#include "replay.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "icarus.h"
#include "model.h"
#include "templates.h"

/* Write the replay testbench (embedded in sagen) to PATH. Returns 0, or 1 with ERR. */
static int write_replay_tb(const char *path, char *err, size_t errlen)
{
  const char *text = NULL;
  for (const template_t *t = sim_files; t->name; t++)
    if (!strcmp(t->name, "sagen_replay_tb.v")) text = t->text;
  FILE *f = text ? fopen(path, "w") : NULL;
  int bad = !f || fputs(text, f) < 0;
  if (f && fclose(f) != 0) bad = 1;
  if (bad) snprintf(err, errlen, "%s: cannot write the replay testbench", path);
  return bad;
}

/* replay_icarus's work, under the model directory's lock. */
static int replay_locked(const cfg_t *c, const char *top, const char *flist, const char *tbp,
                         const char *bdir, const char *rec, const char *outhex, long nwords,
                         uint32_t **words, const char *vcd, char *err, size_t errlen)
{
  long nread = 0;
  if (write_replay_tb(tbp, err, errlen)) return 1;
  int hp_dw = c->if_word_bits > c->wt_word_bits ? c->if_word_bits : c->wt_word_bits;
  int hp_aw = c->if_aw > c->wt_aw ? c->if_aw : c->wt_aw;
  if (c->out_aw > hp_aw) hp_aw = c->out_aw;
  if (icarus_replay(top, hp_aw, hp_dw, c->out_word_bits, flist, tbp, bdir, rec, outhex, vcd, err,
                    errlen))
    return 1;
  if (icarus_read_words(outhex, c->out_word_bits, words, &nread, err, errlen)) return 1;
  if (nread != nwords) {
    snprintf(err, errlen, "icarus returned %ld output words, the driver read %ld", nread, nwords);
    return 1;
  }
  return 0;
}

int replay_icarus(const cfg_t *c, const char *rtl_dir, const char *rec, long nwords,
                  uint32_t **words, const char *vcd, char *err, size_t errlen)
{
  char top[CFG_NAME_MAX + 16], flist[2600], tbp[2600], bdir[2600], outhex[2600];
  *words = NULL;

  emit_top_name(c, top, sizeof top);
  snprintf(flist, sizeof flist, "%s/sagen_%s.f", rtl_dir, c->name);
  snprintf(bdir, sizeof bdir, "%s/..", rtl_dir);
  snprintf(tbp, sizeof tbp, "%s/../sagen_replay_tb.v", rtl_dir);
  snprintf(outhex, sizeof outhex, "%s/../replay.out", rtl_dir);
  /* the testbench, the compiled replay and its output are the model directory's: one replay
   * of a configuration at a time */
  int lock = model_lock(bdir, err, errlen);
  if (lock < 0) return 1;
  int rc = replay_locked(c, top, flist, tbp, bdir, rec, outhex, nwords, words, vcd, err,
                         errlen);
  model_unlock(lock);
  return rc;
}
