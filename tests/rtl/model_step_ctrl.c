/* model_step_ctrl: reference model and stimulus for sagen_step_ctrl (the array edge: steps,
 * bubbles, fill, stall, drain, pass end and the sequence check).
 *
 * Modelled behaviour (from the block's description). Each cycle, from the inputs and three
 * pieces of state (gap: cycles since a context's last tap entered the array, saturating at
 * 0xffff, 0xffff after reset; started: the pass has stepped; fed_last: the lanes' marked element
 * of the context has been popped):
 *   ready = f_ready & w_ready; tap_ready = vld & (!nz | ready); too_soon = last & gap < GAP
 *   (GAP = max(2*ROWS-1, MIN_GAP))
 *   adv = busy & tap_ready & !too_soon; pop = adv & nz; zstep = adv & !nz; ctx_end = adv & last
 *   bubble = busy & tap_ready & too_soon; f_done = f_idle | f_ahead
 *   drain = busy & !vld & !tbusy & f_done; pass_end = !vld & !tbusy & f_done &
 *   (psm_done | (chain & f_ahead & f_ready))
 *   feed_free = f_idle & !f_ahead; waiting = busy & !adv & !bubble & !drain
 *   fill = waiting & !started; stall = waiting & started
 *   seq_err = (ctx_end & !no_ops & !(pop ? head_last : fed_last)) | (busy & vld & nz & fed_last)
 * At the rising edge: go clears started and fed_last (gap holds); otherwise gap becomes 1 on a
 * context end, else counts up, started is set by adv, and fed_last is cleared by a context end or
 * takes head_last on a pop. The active-low reset clears the state at once.
 *
 * Stimulus: passes (go, then busy for 20..200 cycles) separated by idle cycles, each input a
 * random bit with a probability redrawn per pass, a context's last tap often enough that the
 * gap rule bites, and a reset now and then.
 *
 * Usage: model_step_ctrl ROWS MIN_GAP SEED OUT.vec [inject]
 * Vector file: "ROWS MIN_GAP NCYC", then one line per cycle (hex):
 *   rst_n go busy no_ops vld nz last tbusy f_ready f_idle f_ahead head_last w_ready psm_done
 *   chain |
 *   adv pop zstep ctx_end too_soon pass_end feed_free bubble fill stall drain seq_err
 * (the outputs are those of the cycle, before its rising edge). With "inject" one expected
 * output bit is wrong on purpose. */
#include "vec_common.h"

enum { I_RST, I_GO, I_BUSY, I_NOOPS, I_VLD, I_NZ, I_LAST, I_TBUSY, I_FREADY, I_FIDLE, I_FAHEAD,
       I_HLAST, I_WREADY, I_PSM, I_CHAIN, NIN };
enum { O_ADV, O_POP, O_ZSTEP, O_CTXEND, O_TOOSOON, O_PASSEND, O_FEEDFREE, O_BUBBLE, O_FILL,
       O_STALL, O_DRAIN, O_SEQERR, NOUT };

int main(int argc, char **argv)
{
  if (argc < 5 || argc > 6) {
    fprintf(stderr, "usage: %s ROWS MIN_GAP SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int rows = (int)arg_long(argv[1], "ROWS");
  int min_gap = (int)arg_long(argv[2], "MIN_GAP");
  uint64_t seed = (uint64_t)arg_long(argv[3], "SEED");
  const char *out = argv[4];
  int inject = argc == 6 && strcmp(argv[5], "inject") == 0;
  if (rows < 1 || rows > 256 || min_gap < 1 || min_gap > 256) {
    fprintf(stderr, "ROWS or MIN_GAP out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  const int ncyc = 6000;
  const long gap_need = 2L * rows - 1 > min_gap ? 2L * rows - 1 : min_gap;
  int bad = inject ? (int)vrng_range(&g, ncyc / 2, ncyc - 1) : -1;
  long gap = 0xffff;
  int started = 0, fed_last = 0;
  int busy = 0, left = 0, idle_left = 3, no_ops = 0;
  int p[NIN];
  for (int k = 0; k < NIN; k++) p[k] = 50;
  long n_adv = 0, n_bubble = 0, n_seq = 0;

  FILE *f = open_out(out);
  fprintf(f, "%d %d %d\n", rows, min_gap, ncyc);
  for (int t = 0; t < ncyc; t++) {
    int in[NIN], out[NOUT];
    in[I_RST] = !(t < 2 || (t > 10 && vrng_pct(&g, 1) && vrng_pct(&g, 30)));
    in[I_GO] = 0;
    if (!busy) {
      if (idle_left > 0) {
        idle_left--;
      } else {
        in[I_GO] = 1;
        busy = 1;
        left = (int)vrng_range(&g, 20, 200);
        no_ops = vrng_pct(&g, 15);
        /* a pass's flavour: how often each input is high */
        p[I_VLD] = (int)vrng_range(&g, 30, 100);
        p[I_NZ] = no_ops ? 0 : (int)vrng_range(&g, 20, 100);
        p[I_LAST] = (int)vrng_range(&g, 5, 60);
        p[I_TBUSY] = (int)vrng_range(&g, 30, 90);
        p[I_FREADY] = (int)vrng_range(&g, 20, 100);
        p[I_FIDLE] = (int)vrng_range(&g, 5, 50);
        p[I_FAHEAD] = (int)vrng_range(&g, 0, 40);
        p[I_HLAST] = (int)vrng_range(&g, 5, 70);
        p[I_WREADY] = (int)vrng_range(&g, 30, 100);
        p[I_PSM] = (int)vrng_range(&g, 10, 80);
        p[I_CHAIN] = (int)vrng_range(&g, 0, 60);
      }
    }
    /* busy is high the cycle after go, for the pass's length */
    in[I_BUSY] = busy && !in[I_GO];
    in[I_NOOPS] = no_ops;
    for (int k = I_VLD; k < NIN; k++) in[k] = vrng_pct(&g, p[k]);
    if (!in[I_BUSY] && !in[I_GO] && busy == 0) {
      /* between passes the sequencer is idle most of the time */
      if (vrng_pct(&g, 70)) in[I_VLD] = in[I_TBUSY] = 0;
    }
    if (in[I_BUSY] && --left == 0) {
      busy = 0;
      idle_left = (int)vrng_range(&g, 0, 6);
    }

    if (!in[I_RST]) {
      gap = 0xffff;
      started = 0;
      fed_last = 0;
    }
    int ready = in[I_FREADY] && in[I_WREADY];
    int tap_ready = in[I_VLD] && (!in[I_NZ] || ready);
    int too_soon = in[I_LAST] && gap < gap_need;
    int adv = in[I_BUSY] && tap_ready && !too_soon;
    int pop = adv && in[I_NZ];
    int ctx_end = adv && in[I_LAST];
    int bubble = in[I_BUSY] && tap_ready && too_soon;
    int tap_idle = !in[I_VLD] && !in[I_TBUSY];
    int f_done = in[I_FIDLE] || in[I_FAHEAD];
    int drain = in[I_BUSY] && tap_idle && f_done;
    int waiting = in[I_BUSY] && !adv && !bubble && !drain;
    out[O_ADV] = adv;
    out[O_POP] = pop;
    out[O_ZSTEP] = adv && !in[I_NZ];
    out[O_CTXEND] = ctx_end;
    out[O_TOOSOON] = too_soon;
    out[O_PASSEND] = tap_idle && f_done &&
                     (in[I_PSM] || (in[I_CHAIN] && in[I_FAHEAD] && in[I_FREADY]));
    out[O_FEEDFREE] = in[I_FIDLE] && !in[I_FAHEAD];
    out[O_BUBBLE] = bubble;
    out[O_FILL] = waiting && !started;
    out[O_STALL] = waiting && started;
    out[O_DRAIN] = drain;
    int end_ok = pop ? in[I_HLAST] : fed_last;
    out[O_SEQERR] = (ctx_end && !in[I_NOOPS] && !end_ok) ||
                    (in[I_BUSY] && in[I_VLD] && in[I_NZ] && fed_last);
    n_adv += adv;
    n_bubble += bubble;
    n_seq += out[O_SEQERR];
    if (t == bad) out[vrng_range(&g, 0, NOUT - 1)] ^= 1;

    for (int k = 0; k < NIN; k++) fprintf(f, "%x ", (unsigned)in[k]);
    fprintf(f, " ");
    for (int k = 0; k < NOUT; k++) fprintf(f, "%x%s", (unsigned)out[k], k + 1 < NOUT ? " " : "\n");

    /* the rising edge */
    if (in[I_RST]) {
      if (in[I_GO]) {
        started = 0;
        fed_last = 0;
      } else {
        gap = ctx_end ? 1 : (gap == 0xffff ? gap : gap + 1);
        if (adv) started = 1;
        if (ctx_end) fed_last = 0;
        else if (pop) fed_last = in[I_HLAST];
      }
    }
  }
  close_out(f, out);
  /* a stimulus that never steps, never waits for the reserve chains or never trips the check
   * would test little */
  if (n_adv < 100 || (rows > 1 && n_bubble < 10) || n_seq < 10) {
    fprintf(stderr, "weak stimulus: %ld steps, %ld bubbles, %ld sequence errors\n", n_adv,
            n_bubble, n_seq);
    return 1;
  }
  return 0;
}
