/* model_pe: reference model and stimulus for sagen_pe (output-stationary PE).
 *
 * Behaviour modelled (from the block's description): every cycle a/valid/last and b move one
 * register to the right/down (a_o, b_o), and the product a*b (signed) of the operands in those
 * registers is registered with their valid and last flags; the next cycle a valid product is
 * added (wrapped to ACC_BITS) to the accumulator, and a valid product flagged last hands
 * acc + product to the reserve register (valid) and restarts the accumulator at zero; otherwise
 * the reserve register takes the chain input from the PE below. An active-low reset clears
 * every register.
 *
 * Usage: model_pe IN_BITS W_BITS ACC_BITS SEED OUT.vec [inject]
 * Vector file: "IN W ACC NCYC", then one line per cycle (hex):
 *   rst_n a a_vld a_last b res_i res_vld_i | a_o a_vld_o a_last_o b_o res_o res_vld_o
 * where the second group is the expected state after the cycle's rising edge. With "inject"
 * one expected a_o is wrong on purpose (to show the test can fail). */
#include "vec_common.h"

typedef struct {
  uint64_t rst_n, a, vld, last, b, res_i, res_vld_i;
  uint64_t e_a, e_vld, e_last, e_b, e_res, e_res_vld;
} pe_cycle;

int main(int argc, char **argv)
{
  if (argc < 6 || argc > 7) {
    fprintf(stderr, "usage: %s IN_BITS W_BITS ACC_BITS SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int in_bits = (int)arg_long(argv[1], "IN_BITS");
  int w_bits = (int)arg_long(argv[2], "W_BITS");
  int acc_bits = (int)arg_long(argv[3], "ACC_BITS");
  uint64_t seed = (uint64_t)arg_long(argv[4], "SEED");
  int inject = argc == 7 && strcmp(argv[6], "inject") == 0;
  if (in_bits < 2 || in_bits > 24 || w_bits < 2 || w_bits > 24 || acc_bits < 2 ||
      acc_bits > 60) {
    fprintf(stderr, "widths out of range\n");
    return 2;
  }
  const uint64_t am = bits_mask(acc_bits);
  vrng g;
  vrng_seed(&g, seed);

  const int ncyc = 3000;
  vvec cyc = {0, 0, 0, sizeof(pe_cycle)};

  /* Model state: the six output registers, the product stage and the accumulator. */
  uint64_t a_o = 0, vld_o = 0, last_o = 0, b_o = 0, res_o = 0, res_vld_o = 0, acc = 0;
  uint64_t prod = 0, prod_vld = 0, prod_last = 0;
  /* Stimulus mood changes every few hundred cycles: mostly-valid streams with short contexts,
   * sparse valid, long contexts (wrap-around). */
  int p_vld = 70, p_last = 25;
  for (int t = 0; t < ncyc; t++) {
    if (t % 250 == 0) {
      p_vld = (int)vrng_range(&g, 20, 100);
      p_last = (int)vrng_range(&g, 2, 40);
    }
    pe_cycle *c = vvec_push(&cyc);
    c->rst_n = !(t < 2 || (t > 20 && vrng_pct(&g, 1)));
    c->a = rand_signed(&g, in_bits);
    c->b = rand_signed(&g, w_bits);
    c->vld = (uint64_t)vrng_pct(&g, p_vld);
    c->last = (uint64_t)vrng_pct(&g, p_last);
    c->res_i = vrng_pct(&g, 10) ? (vrng_pct(&g, 50) ? am : 0) : (vrng_u64(&g) & am);
    c->res_vld_i = (uint64_t)vrng_pct(&g, 50);

    if (!c->rst_n) {
      a_o = vld_o = last_o = b_o = res_o = res_vld_o = acc = prod = prod_vld = prod_last = 0;
    } else {
      /* stage 3 from the registered product, stage 2 the product of the registered operands,
       * then stage 1 registers this cycle's operands */
      uint64_t sum = (acc + prod) & am;
      if (prod_last) {
        res_o = sum;
        res_vld_o = 1;
        acc = 0;
      } else {
        if (prod_vld) acc = sum;
        res_o = c->res_i;
        res_vld_o = c->res_vld_i;
      }
      prod = (uint64_t)(sign_ext(a_o, in_bits) * sign_ext(b_o, w_bits));
      prod_vld = vld_o;
      prod_last = vld_o && last_o;
      a_o = c->a;
      vld_o = c->vld;
      last_o = c->last;
      b_o = c->b;
    }
    c->e_a = a_o;
    c->e_vld = vld_o;
    c->e_last = last_o;
    c->e_b = b_o;
    c->e_res = res_o;
    c->e_res_vld = res_vld_o;
  }
  if (inject) {
    size_t k = (size_t)vrng_range(&g, ncyc / 2, ncyc - 1);
    VVEC_AT(cyc, pe_cycle, k).e_a ^= 1u;
  }

  FILE *f = open_out(argv[5]);
  fprintf(f, "%d %d %d %d\n", in_bits, w_bits, acc_bits, ncyc);
  for (size_t i = 0; i < cyc.n; i++) {
    pe_cycle *c = &VVEC_AT(cyc, pe_cycle, i);
    fprintf(f, "%llx %llx %llx %llx %llx %llx %llx  %llx %llx %llx %llx %llx %llx\n",
            (unsigned long long)c->rst_n,
            (unsigned long long)c->a, (unsigned long long)c->vld,
            (unsigned long long)c->last, (unsigned long long)c->b,
            (unsigned long long)c->res_i, (unsigned long long)c->res_vld_i,
            (unsigned long long)c->e_a, (unsigned long long)c->e_vld,
            (unsigned long long)c->e_last, (unsigned long long)c->e_b,
            (unsigned long long)c->e_res, (unsigned long long)c->e_res_vld);
  }
  close_out(f, argv[5]);
  free(cyc.p);
  return 0;
}
