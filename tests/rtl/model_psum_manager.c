/* model_psum_manager: reference model and stimulus for sagen_psum_manager (no column groups),
 * in its plain mode and in col2im.
 *
 * Modelled behaviour, pass by pass (the output memory and the overlap-add line last from pass to
 * pass). A pass walks NKG filter groups of NCTX contexts of ROWS pixels; pixel q of filter group
 * kg brings one result per column, res[kg][q][c]; pixels q >= NPIX are dropped.
 *   plain: word kg * KGW + q = res[kg][q] (+ the stored word if the pass accumulates).
 *   col2im: the pixels are rows of OWV (pixel q at row q / OWV, column q % OWV); every filter
 *   group writes the words 0..NPIX-1. The route table gives, per filter group, class and lane,
 *   the column whose result goes there (or none): V00, V01, V10, V11. Word q takes V00(q),
 *   V01(q-1) (not at a row's first column) and the carry L(q) into its row: from the row above
 *   in the pass, V10(q-OWV) + V11(q-OWV-1) (no V11 at a row's first column); in the pass's first
 *   row, what the previous pass left in the line (only if LINE_FIRST, and never in a pass that
 *   accumulates its carry, LINE_ACC), for filter groups from LKG0 on. The first filter group
 *   writes its words, unless the pass accumulates; later ones add. The line keeps, per filter
 *   group from LKG0 on, the carry out of the pass's last row (LINE_ACC: added to what it held).
 * Only the columns below OWT of each row are compared (the grid's columns past its real width
 * hold what the routes leave there), and the line's words past OWT are not modelled.
 * Floating point (FP = 1, results of AEW/AFW bits): plain word = res + stored, rounded to nearest
 * even (fp_ref.h), or res + -0 (res itself) when the pass writes; col2im word = (V00 + V01) +
 * (L + stored) and line word = (V10 + V11) + the line's carry (LINE_ACC), each + rounded, an
 * absent operand -0 (the identity); col2im rows and tiles of 16 pixels or more (as the
 * controller requires in floating point). Results are moderate numbers of both signs, now and
 * then any class (zeros, subnormals, infinities, NaN).
 *
 * Usage: model_psum_manager ROWS COLS ACC_BITS LINE_WORDS SEED OUT.vec [inject]
 *        model_psum_manager ROWS COLS fp AEW AFW LINE_WORDS SEED OUT.vec [inject]
 * Vector file: "ROWS COLS ACC_BITS LINE_WORDS NPASS", then per pass:
 *   "acc nctx npix nkg owv c2i line_first line_acc lkg0 kgw chain bank", the route table
 *   (RT_KGS * 4 * COLS hex entries {valid, column}), "NCYC" and NCYC cycle lines (hex: step,
 *   valid bits, COLS results), then "NCHK" and NCHK lines "address expected-word" (hex, bank *
 *   4096 + word; lane c at c * ACC_BITS).
 * chain: the testbench starts the pass as soon as the walk is free (free_o), in the cycle of the
 * last pass's last result or after it, while that pass's words are still on their way, rather
 * than once done_o is high (plain passes after a plain pass; the last pass's lines then end with
 * its last result, and the testbench steps on without results until the walk is free). In
 * floating point a chained pass's first results come 10 cycles (16 with a line) after its start
 * or later, as the core's context gap keeps them: a word is read again no sooner than the
 * adders' path.
 * With "inject" one expected word is wrong on purpose. */
#include "vec_common.h"
#include "fp_ref.h"

#define RT_KGS 4
#define MAXW 4096

static int rows, cols, acc, line_words, lb;
static int fp;                        /* floating point results of format fa */
static fmt_t fa;
static uint64_t mem[2 * MAXW];        /* the output memory's two banks (words of cols lanes) */
static uint64_t line_m[MAXW][8];      /* the line's words, lane by lane (cols <= 8) */
static uint64_t res[RT_KGS][256][8];  /* a pass's results: [kg][pixel][column] */
static int route_v[RT_KGS][4][8], route_c[RT_KGS][4][8];

static uint64_t lane_of(uint64_t w, int c) { return (w >> (c * acc)) & bits_mask(acc); }
static uint64_t with_lane(uint64_t w, int c, uint64_t v)
{
  uint64_t m = bits_mask(acc) << (c * acc);
  return (w & ~m) | ((v & bits_mask(acc)) << (c * acc));
}

/* A result: an integer of ACC bits, or a float (mostly moderate, now and then any class). */
static uint64_t result(vrng *g)
{
  if (!fp) return rand_signed(g, acc) & bits_mask(acc);
  if (vrng_pct(g, 5)) return draw(g, fa);
  uint64_t e = (uint64_t)(fmt_bias(fa) + vrng_range(g, -3, 3));
  return ((vrng_u64(g) & 1u) << (fa.ew + fa.fw)) | (e << fa.fw) | (vrng_u64(g) & bits_mask(fa.fw));
}

/* No operand: 0, or -0 in floating point (the float sum's identity). */
static uint64_t none(void) { return fp ? 1ull << (acc - 1) : 0; }

/* A float sum as the design's adder gives it. */
static uint64_t fadd(uint64_t a, uint64_t b) { return round_fmt(fa, decode(fa, a) + decode(fa, b)); }

/* Class K's routed value in lane L of pixel Q of filter group KG (none if Q < 0). */
static uint64_t routed(int kg, int k, long q, int l)
{
  if (q < 0 || !route_v[kg][k][l]) return none();
  return res[kg][q][route_c[kg][k][l]];
}

int main(int argc, char **argv)
{
  fp = argc > 3 && strcmp(argv[3], "fp") == 0;
  int a0 = fp ? 7 : 5;            /* the argument SEED */
  if (argc < a0 + 2 || argc > a0 + 3) {
    fprintf(stderr, "usage: %s ROWS COLS ACC_BITS LINE_WORDS SEED OUT.vec [inject]\n"
                    "       %s ROWS COLS fp AEW AFW LINE_WORDS SEED OUT.vec [inject]\n", argv[0],
            argv[0]);
    return 2;
  }
  rows = (int)arg_long(argv[1], "ROWS");
  cols = (int)arg_long(argv[2], "COLS");
  if (fp) {
    fa = (fmt_t){(int)arg_long(argv[4], "AEW"), (int)arg_long(argv[5], "AFW")};
    acc = fa.ew + fa.fw + 1;
    line_words = (int)arg_long(argv[6], "LINE_WORDS");
  } else {
    acc = (int)arg_long(argv[3], "ACC_BITS");
    line_words = (int)arg_long(argv[4], "LINE_WORDS");
  }
  uint64_t seed = (uint64_t)arg_long(argv[a0], "SEED");
  const char *out = argv[a0 + 1];
  int inject = argc == a0 + 3 && strcmp(argv[a0 + 2], "inject") == 0;
  if (rows < 1 || rows > 8 || cols < 1 || cols > 8 || acc < 2 || cols * acc > 64 ||
      (!fp && (line_words < 3 || line_words > MAXW)) ||
      (fp && line_words != 0 && (line_words < 16 || line_words > MAXW)) ||
      (fp && (fa.ew < 2 || fa.ew > 8 || fa.fw < 2 || fa.fw > 23))) {
    fprintf(stderr, "parameters out of range\n");
    return 2;
  }
  for (lb = 1; (1 << lb) < cols; lb++) continue;
  vrng g;
  vrng_seed(&g, seed);
  FILE *f = open_out(out);
  const int npass = 60;
  int bad_pass = inject ? (int)vrng_range(&g, 0, npass - 1) : -1;
  fprintf(f, "%d %d %d %d %d\n", rows, cols, acc, line_words, npass);
  memset(mem, 0, sizeof mem);
  /* passes come in runs: a plain pass, or col2im tiles of one grid width in order, the first
   * without the line, single-row tiles sometimes in reduction slices */
  int chain = 0, c2i_run = 0, owv = 3, owt = 3, nkg = 1, lkg0 = 0, tiles_left = 0, first_tile = 1;
  const int minr = fp ? 16 : 4;   /* the shortest col2im row (and float tile) */
  for (int p = 0; p < npass;) {
    int c2i, acc_p = 0, lfirst = 0, lacc = 0;
    long npix;
    if (tiles_left == 0) {
      c2i_run = line_words > 0 && !chain && vrng_pct(&g, 75);
      if (c2i_run) {
        /* a row of the grid (minr or more) for every filter group from lkg0 on fits the line
         * (the controller refuses other descriptors) */
        nkg = (int)vrng_range(&g, 1, RT_KGS);
        lkg0 = (int)vrng_range(&g, 0, nkg);   /* nkg: no filter group has a line segment */
        if ((nkg - lkg0) * minr > line_words) lkg0 = nkg - line_words / minr;
        owv = (int)vrng_range(&g, minr, line_words / (nkg > lkg0 ? nkg - lkg0 : 1));
        if (owv > minr + 21) owv = (int)vrng_range(&g, minr, minr + 21);
        owt = vrng_pct(&g, 50) ? owv : (int)vrng_range(&g, fp ? minr : 1, owv);
        /* now and then a last row of one pixel: on one-row tiles each filter group is then a
         * single fire, and the walk moves group after group on consecutive fires */
        if (!fp && vrng_pct(&g, 20)) owt = 1;
        tiles_left = (int)vrng_range(&g, 1, 5);
        first_tile = 1;
        /* the route table of the run: random columns in random classes and lanes */
        for (int kg = 0; kg < RT_KGS; kg++)
          for (int k = 0; k < 4; k++)
            for (int l = 0; l < cols; l++) {
              route_v[kg][k][l] = vrng_pct(&g, 60);
              route_c[kg][k][l] = (int)vrng_range(&g, 0, cols - 1);
            }
      } else {
        tiles_left = 1;
      }
    }
    tiles_left--;
    c2i = c2i_run;
    int slices = 1, tile_rows;
    if (c2i) {
      tile_rows = (int)vrng_range(&g, 1, 4);
      if (tile_rows == 1 && vrng_pct(&g, 50)) slices = (int)vrng_range(&g, 2, 3);
      if (slices > npass - p) slices = npass - p;
      npix = (long)(tile_rows - 1) * owv + owt;
      if ((long)nkg * npix > 240 * RT_KGS) npix = owv;
    } else {
      nkg = (int)vrng_range(&g, 1, 3);
      npix = vrng_range(&g, 1, 40);
      acc_p = vrng_pct(&g, 40);
      tile_rows = 1;
    }
    for (int sl = 0; sl < slices; sl++, p++) {
      if (c2i) {
        acc_p = sl > 0;
        lfirst = !first_tile && sl == 0;
        lacc = sl > 0;
      }
      long nctx = (npix + rows - 1) / rows, kgw = c2i ? 0 : npix;
      if ((c2i ? npix : (long)nkg * npix) > MAXW) return 2;
      /* whether the next pass is chained to this one (then a plain pass too) */
      int chain_next = !c2i && p + 1 < npass && vrng_pct(&g, 60);
      int bank = !c2i && vrng_pct(&g, 50);   /* plain passes write either bank */
      uint64_t *bm = mem + bank * MAXW;
      fprintf(f, "%d %ld %ld %d %ld %d %d %d %d %ld %d %d\n", acc_p, nctx, npix, nkg,
              c2i ? (long)owv : npix, c2i, lfirst, lacc, c2i ? lkg0 : 0, kgw, chain, bank);
      for (int kg = 0; kg < RT_KGS; kg++)
        for (int k = 0; k < 4; k++)
          for (int l = 0; l < cols; l++)
            fprintf(f, "%x%c", c2i && route_v[kg][k][l] ? (unsigned)(1 << lb | route_c[kg][k][l])
                                                          : 0u, l == cols - 1 ? '\n' : ' ');
      /* the results, and the stimulus: column c shows pixel (kg, x) at step base + c, the
       * pixels of a context on consecutive steps, some cycles without a step, gaps between
       * contexts */
      long npx = nctx * rows;
      for (int kg = 0; kg < nkg; kg++)
        for (long q = 0; q < npx; q++)
          for (int c = 0; c < cols; c++) res[kg][q][c] = result(&g);
      long total = (long)nkg * npx;
      long *base = malloc(sizeof(long) * (size_t)(total + 1));
      if (!base) return 2;
      long st = 2;
      for (long i = 0; i < total; i++) {
        if (i % rows == 0) st += vrng_range(&g, 0, vrng_pct(&g, 30) ? 6 : 1);
        base[i] = st++;
      }
      /* before a chained pass, the lines end with the last result's last column: the
       * testbench steps on until the walk is free and starts the next pass then */
      long nsteps = chain_next ? base[total - 1] + cols : st + cols + 2;
      /* one line per cycle: step cycles are drawn with 70% odds */
      long ncyc = 0, s = 0;
      char *steps = malloc((size_t)(nsteps * 3 + 64));
      if (!steps) return 2;
      if (fp && chain)
        for (int k = 0; k < (line_words ? 16 : 10); k++) steps[ncyc++] = 0;
      while (s < nsteps) {
        int stp = vrng_pct(&g, 70);
        steps[ncyc++] = (char)stp;
        s += stp;
      }
      /* a few cycles without a step or none: the testbench then waits for done_o, which must
       * not come before the last word is written */
      if (!chain_next)
        for (int k = (int)vrng_range(&g, 0, 12); k > 0; k--) steps[ncyc++] = 0;
      fprintf(f, "%ld\n", ncyc);
      long si = 0;   /* step index of the cycle */
      for (long cy = 0; cy < ncyc; cy++) {
        unsigned vld = 0;
        fprintf(f, "%x", (unsigned)steps[cy]);
        uint64_t vals[8] = {0};
        for (int c = 0; c < cols; c++) {
          /* the pixel column c shows during step si: base[i] + c == si */
          long lo = 0, hi = total - 1, i = -1;
          while (lo <= hi) {
            long mid = (lo + hi) / 2;
            if (base[mid] + c == si) { i = mid; break; }
            if (base[mid] + c < si) lo = mid + 1;
            else hi = mid - 1;
          }
          if (i >= 0 && si < nsteps) {
            vld |= 1u << c;
            vals[c] = res[i / npx][i % npx][c];
          }
        }
        fprintf(f, " %x", vld);
        for (int c = 0; c < cols; c++) fprintf(f, " %llx", (unsigned long long)vals[c]);
        fprintf(f, "\n");
        si += steps[cy];
      }
      free(steps);
      free(base);
      /* expected: the words of the pass */
      if (!c2i) {
        for (int kg = 0; kg < nkg; kg++)
          for (long q = 0; q < npix; q++) {
            uint64_t w = 0, old = bm[kg * kgw + q];
            for (int c = 0; c < cols; c++)
              w = with_lane(w, c, fp ? round_fmt(fa, decode(fa, res[kg][q][c]) +
                                                     (acc_p ? decode(fa, lane_of(old, c)) : -0.0))
                                     : res[kg][q][c] + (acc_p ? lane_of(old, c) : 0));
            bm[kg * kgw + q] = w;
          }
      } else {
        /* pixel by pixel, as the words and the line are written */
        for (int kg = 0; kg < nkg; kg++) {
          int hl = kg >= lkg0;
          for (long q = 0; q < npix; q++) {
            long j = q % owv;
            int add_l = hl && !lacc && (q >= owv || lfirst);
            uint64_t old = mem[q], w = 0;
            uint64_t *lw = line_m[(hl ? kg - lkg0 : 0) * owv + j];
            for (int l = 0; l < cols; l++) {
              uint64_t own = routed(kg, 0, q, l), prev = j > 0 ? routed(kg, 1, q - 1, l) : none();
              uint64_t carry = add_l ? lw[l] : none();
              uint64_t st = acc_p || kg > 0 ? lane_of(old, l) : none();
              uint64_t down = routed(kg, 2, q, l), dprev = j > 0 ? routed(kg, 3, q - 1, l) : none();
              uint64_t lc = lacc ? lw[l] : none();
              if (fp) {
                w = with_lane(w, l, fadd(fadd(own, prev), fadd(carry, st)));
                if (hl) lw[l] = fadd(fadd(down, dprev), lc);
              } else {
                w = with_lane(w, l, own + prev + carry + st);
                if (hl) lw[l] = (lc + down + dprev) & bits_mask(acc);
              }
            }
            mem[q] = w;
          }
        }
      }
      fprintf(f, "%ld\n", (c2i ? 1 : nkg) * npix);
      for (int kg = 0; kg < (c2i ? 1 : nkg); kg++)
        for (long q = 0; q < npix; q++) {
          uint64_t w = bm[kg * kgw + q];
          if (p == bad_pass && q == 0) w ^= 1u;
          fprintf(f, "%lx %llx\n", bank * MAXW + kg * kgw + q, (unsigned long long)w);
        }
      chain = chain_next;
    }
    first_tile = 0;
  }
  close_out(f, out);
  return 0;
}
