/* model_queue2: reference model and stimulus for sagen_queue2 (a two-entry queue whose room is
 * a registered condition).
 *
 * Modelled behaviour: a FIFO of two entries. In a cycle, a push is taken if the queue held
 * fewer than two entries at the cycle's start (room), a pop if it held one or more (a pop of an
 * empty queue, and a push without room, are ignored; a push and a pop of one entry leave the
 * pushed word at the head). Flush empties the queue and drops the cycle's push; the active-low
 * reset empties it. After the rising edge: vld = one entry or more, room = fewer than two, q =
 * the head (meaningful with vld only).
 *
 * Usage: model_queue2 W SEED OUT.vec [inject]
 * Vector file: "W NCYC", then one line per cycle (hex): rst_n flush push d pop | vld room q
 * (the expected part: the state 1 unit after the rising edge, inputs still applied). With
 * "inject" one expected head is wrong on purpose (at a cycle where it is valid). */
#include "vec_common.h"

int main(int argc, char **argv)
{
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: %s W SEED OUT.vec [inject]\n", argv[0]);
    return 2;
  }
  int w = (int)arg_long(argv[1], "W");
  uint64_t seed = (uint64_t)arg_long(argv[2], "SEED");
  int inject = argc == 5 && strcmp(argv[4], "inject") == 0;
  if (w < 1 || w > 60) {
    fprintf(stderr, "W out of range\n");
    return 2;
  }
  vrng g;
  vrng_seed(&g, seed);
  const int ncyc = 3000;
  int bad = inject ? (int)vrng_range(&g, ncyc / 2, ncyc - 1) : -1;
  uint64_t ent[2] = {0, 0};
  int n = 0;
  int p_push = 50, p_pop = 50;
  FILE *f = open_out(argv[3]);
  fprintf(f, "%d %d\n", w, ncyc);
  for (int t = 0; t < ncyc; t++) {
    /* moods: producer faster, consumer faster, both busy, both idle */
    if (t % 150 == 0) {
      p_push = (int)vrng_range(&g, 5, 100);
      p_pop = (int)vrng_range(&g, 5, 100);
    }
    int rst_n = !(t < 2 || (t > 10 && vrng_pct(&g, 1)));
    int flush = vrng_pct(&g, 2);
    int push = vrng_pct(&g, p_push);
    int pop = vrng_pct(&g, p_pop);
    uint64_t d = vrng_u64(&g) & bits_mask(w);
    if (!rst_n || flush) {
      n = 0;
    } else {
      int room = n < 2, have = n > 0;
      if (pop && have) {
        ent[0] = ent[1];
        n--;
      }
      if (push && room) ent[n++] = d;
    }
    int vld = n > 0, room = n < 2;
    uint64_t q = vld ? ent[0] : 0;
    if (bad >= 0 && t >= bad && vld) {
      q ^= 1u;
      bad = -1;
    }
    fprintf(f, "%x %x %x %llx %x  %x %x %llx\n", (unsigned)rst_n, (unsigned)flush,
            (unsigned)push, (unsigned long long)d, (unsigned)pop, (unsigned)vld, (unsigned)room,
            (unsigned long long)q);
  }
  close_out(f, argv[3]);
  return 0;
}
