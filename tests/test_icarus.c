/* test_icarus: icarus_replay and icarus_read_words on a tiny design of the sagen top's port list
 * (a 16 x 16-bit register file read back sign-extended into a 32-bit hp_rdata_o, a write
 * counter at CSR 1 and a scratch CSR at 2), written to a temporary directory with hand-made
 * records: a passing replay and its words, the compile cache, wrong H and S values, X on
 * hp_rdata_o and on csr_rdata_o, a malformed record, a compile error, a missing tool, and
 * icarus_read_words on hand-made files.
 *
 * Usage: test_icarus [TB_PATH] (default sim/sagen_replay_tb.v, relative to the current
 * directory). Prints "ok <name>" or "not ok <name>: <detail>" per case, then "N passed, N failed"
 * (tests/lib/tap.h), and exits non-zero if any case failed. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "icarus.h"
#include "lib/tap.h"

static char tmpdir[64];
static char tb[4096];

/* TMPDIR/NAME in a static buffer (one of eight, so several can be alive at once). */
static const char *tpath(const char *name) {
  static char bufs[8][512];
  static int next;
  char *b = bufs[next++ % 8];

  snprintf(b, sizeof bufs[0], "%s/%s", tmpdir, name);
  return b;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");

  if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "test_icarus: cannot write %s: %s\n", path, strerror(errno));
    exit(2);
  }
}

enum { GOOD, NO_MEM_INIT, NO_SCRATCH_RESET, SYNTAX_ERROR };

/* The tiny top module; VARIANT breaks it in one way. */
static void write_design(const char *path, int variant) {
  FILE *f = fopen(path, "w");

  if (f == NULL) {
    fprintf(stderr, "test_icarus: cannot write %s: %s\n", path, strerror(errno));
    exit(2);
  }
  fprintf(f,
          "`default_nettype none\n"
          "module tiny_top (\n"
          "  input  wire        clk_i,\n"
          "  input  wire        rst_ni,\n"
          "  input  wire        csr_we_i,\n"
          "  input  wire [5:0]  csr_addr_i,\n"
          "  input  wire [31:0] csr_wdata_i,\n"
          "  output wire [31:0] csr_rdata_o,\n"
          "  input  wire        hp_we_i,\n"
          "  input  wire        hp_mem_i,\n"
          "  input  wire        hp_bank_i,\n"
          "  input  wire [3:0]  hp_addr_i,\n"
          "  input  wire [15:0] hp_wdata_i,\n"
          "  input  wire        hp_re_i,\n"
          "  output wire [31:0] hp_rdata_o,\n"
          "  output wire        busy_o,\n"
          "  output wire        irq_o\n"
          ");\n"
          "  reg [15:0] mem [0:15];\n"
          "  reg [31:0] rdata_q, writes_q, scratch_q;\n"
          "  integer i;\n"
          "%s"
          "  always @(posedge clk_i) if (hp_we_i) mem[hp_addr_i] <= hp_wdata_i;\n"
          "  always @(posedge clk_i or negedge rst_ni)\n"
          "    if (!rst_ni) begin\n"
          "      rdata_q <= 32'd0;\n"
          "      writes_q <= 32'd0;\n"
          "%s"
          "    end else begin\n"
          "      if (hp_we_i) writes_q <= writes_q + 32'd1;\n"
          "      if (hp_re_i) rdata_q <= {{16{mem[hp_addr_i][15]}}, mem[hp_addr_i]};\n"
          "      if (csr_we_i && csr_addr_i == 6'd2) scratch_q <= csr_wdata_i;\n"
          "    end\n"
          "  assign csr_rdata_o = csr_addr_i == 6'd1 ? writes_q :\n"
          "                       csr_addr_i == 6'd2 ? scratch_q : 32'd0;\n"
          "  assign hp_rdata_o = rdata_q;\n"
          "  assign busy_o = 1'b0;\n"
          "  assign irq_o = 1'b0;\n"
          "  wire unused = &{1'b0, hp_mem_i, hp_bank_i};\n"
          "%s"
          "endmodule\n"
          "`resetall\n",
          variant == NO_MEM_INIT ? "" : "  initial for (i = 0; i < 16; i = i + 1) mem[i] = 16'd0;\n",
          variant == NO_SCRATCH_RESET ? "" : "      scratch_q <= 32'd0;\n",
          variant == SYNTAX_ERROR ? "  assign = ;\n" : "");
  if (fclose(f) != 0) {
    fprintf(stderr, "test_icarus: cannot write %s\n", path);
    exit(2);
  }
}

/* A record that passes on the good design: writes 8001 at 3 and 1234 at 5, reads them back,
 * reads the write counter and the scratch CSR, and reads the never written word 7 (0 there). */
static const char *pass_rec =
    "R 2\n"
    "I 1\n"
    "S 0\n"
    "C 0 0 0 1 0 0 3 8001 0\n"
    "C 0 0 0 1 0 0 5 1234 0\n"
    "C 0 0 0 0 0 0 3 0 1\n"
    "H ffff8001\n"
    "C 0 1 0 0 0 0 5 0 1\n"
    "S 2\n"
    "H 1234\n"
    "C 1 2 deadbeef 0 0 0 0 0 0\n"
    "C 0 2 0 0 0 0 7 0 1\n"
    "S deadbeef\n"
    "H 0\n"
    "E\n";

/* Replace the first occurrence of FROM in pass_rec by TO and write it to PATH. */
static void write_rec_variant(const char *path, const char *from, const char *to) {
  char buf[1024];
  const char *at = strstr(pass_rec, from);

  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - pass_rec), pass_rec, to, at + strlen(from));
  write_text(path, buf);
}

static int replay(const char *flist, const char *build, const char *rec, const char *out,
                  const char *vcd, char *err, size_t errlen) {
  return icarus_replay("tiny_top", 4, 16, 32, flist, tb, build, rec, out, vcd, err, errlen);
}

static int vvp_ino(const char *build, ino_t *ino) {
  char p[512];
  struct stat st;

  snprintf(p, sizeof p, "%s/replay.vvp", build);
  if (stat(p, &st) != 0)
    return 1;
  *ino = st.st_ino;
  return 0;
}

static void expect_fail(const char *name, const char *flist, const char *rec, const char *want) {
  char err[512];
  int rc = replay(flist, tpath("build"), rec, tpath("out.hex"), NULL, err, sizeof err);

  if (rc != 1)
    not_ok(name, "expected 1, got %d", rc);
  else if (strstr(err, want) == NULL)
    not_ok(name, "expected an error with '%s', got '%s'", want, err);
  else
    ok(name);
}

static void test_pass_and_cache(void) {
  char err[512];
  uint32_t *w = NULL;
  long n = 0;
  ino_t ino1, ino2, ino3;
  struct stat st;
  int rc;

  rc = replay(tpath("rtl/tiny.f"), tpath("build"), tpath("pass.rec"), tpath("out.hex"),
              tpath("wave.vcd"), err, sizeof err);
  if (rc != 0) {
    not_ok("pass", "expected 0, got %d: %s", rc, err);
    return;
  }
  ok("pass");

  rc = icarus_read_words(tpath("out.hex"), 32, &w, &n, err, sizeof err);
  if (rc != 0)
    not_ok("pass_words", "expected 0, got %d: %s", rc, err);
  else if (n != 3 || w[0] != 0xffff8001u || w[1] != 0x1234u || w[2] != 0)
    not_ok("pass_words", "expected 3 words ffff8001 00001234 00000000, got %ld", n);
  else
    ok("pass_words");
  free(w);

  if (stat(tpath("wave.vcd"), &st) != 0 || st.st_size == 0)
    not_ok("pass_vcd", "expected a waveform in %s", tpath("wave.vcd"));
  else
    ok("pass_vcd");

  /* Again without changes: replay.vvp is reused (same inode: no rename of a new build). */
  vvp_ino(tpath("build"), &ino1);
  rc = replay(tpath("rtl/tiny.f"), tpath("build"), tpath("pass.rec"), NULL, NULL, err, sizeof err);
  if (rc != 0 || vvp_ino(tpath("build"), &ino2) != 0 || ino1 != ino2)
    not_ok("cache_reused", "expected the cached replay.vvp to be reused (rc %d: %s)", rc, err);
  else
    ok("cache_reused");

  /* A design file newer than replay.vvp: rebuilt. */
  {
    struct timespec ts[2];

    clock_gettime(CLOCK_REALTIME, &ts[0]);
    ts[0].tv_sec += 5;
    ts[1] = ts[0];
    if (utimensat(AT_FDCWD, tpath("rtl/tiny_top.v"), ts, 0) != 0) {
      not_ok("cache_stale", "utimensat: %s", strerror(errno));
      return;
    }
  }
  rc = replay(tpath("rtl/tiny.f"), tpath("build"), tpath("pass.rec"), NULL, NULL, err, sizeof err);
  if (rc != 0 || vvp_ino(tpath("build"), &ino3) != 0 || ino3 == ino2)
    not_ok("cache_stale", "expected replay.vvp to be rebuilt (rc %d: %s)", rc, err);
  else
    ok("cache_stale");

  /* Other widths (a different cache key): rebuilt, even though no file changed. The tiny
   * design's ports stay 16 / 32 bits wide, so the connection is only width-mismatched. */
  rc = icarus_replay("tiny_top", 4, 16, 40, tpath("rtl/tiny.f"), tb, tpath("build"),
                     tpath("pass.rec"), NULL, NULL, err, sizeof err);
  if (vvp_ino(tpath("build"), &ino1) != 0 || ino1 == ino3)
    not_ok("cache_key", "expected replay.vvp to be rebuilt for another out_dw (rc %d: %s)", rc,
         err);
  else
    ok("cache_key");
}

static void test_read_words(void) {
  char err[512];
  uint32_t *w = NULL;
  long n = 0;
  int rc;

  write_text(tpath("w48.hex"), "123456789abc\n\n000000000001\nFFFFFFFFFFFF\n");
  rc = icarus_read_words(tpath("w48.hex"), 48, &w, &n, err, sizeof err);
  if (rc != 0)
    not_ok("words_48", "expected 0, got %d: %s", rc, err);
  else if (n != 3 || w[0] != 0x56789abcu || w[1] != 0x1234u || w[2] != 1 || w[3] != 0 ||
           w[4] != 0xffffffffu || w[5] != 0xffffu)
    not_ok("words_48", "wrong words (n %ld)", n);
  else
    ok("words_48");
  free(w);

  write_text(tpath("empty.hex"), "");
  rc = icarus_read_words(tpath("empty.hex"), 32, &w, &n, err, sizeof err);
  if (rc != 0 || n != 0)
    not_ok("words_empty", "expected 0 words, got rc %d n %ld: %s", rc, n, err);
  else
    ok("words_empty");
  free(w);

  {
    static const struct {
      const char *name, *text, *want;
      int dw;
    } bad[] = {
        {"words_x", "00000001\n0000xxxx\n", "x or z in value 1", 32},
        {"words_z", "zzzzzzzz\n", "x or z", 32},
        {"words_too_long", "000000001\n", "more than 8 hex digits", 32},
        {"words_too_wide", "40000000\n", "value wider than 30 bits", 30},
        {"words_not_hex", "12g4\n", "not a hex number", 32},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      write_text(tpath("bad.hex"), bad[i].text);
      w = (uint32_t *)&rc;
      rc = icarus_read_words(tpath("bad.hex"), bad[i].dw, &w, &n, err, sizeof err);
      if (rc != 1 || w != NULL || n != 0)
        not_ok(bad[i].name, "expected 1 with no words, got %d", rc);
      else if (strstr(err, bad[i].want) == NULL || strstr(err, "bad.hex:") == NULL)
        not_ok(bad[i].name, "expected an error with '%s', got '%s'", bad[i].want, err);
      else
        ok(bad[i].name);
    }
  }
  {
    int rc2 = icarus_read_words(tpath("missing.hex"), 32, &w, &n, err, sizeof err);
    if (rc2 != 1 || strstr(err, "cannot open") == NULL)
      not_ok("words_missing", "expected 'cannot open', got %d '%s'", rc2, err);
    else
      ok("words_missing");
  }
}

int main(int argc, char **argv) {
  char cwd[2048], err[512];
  const char *tb_arg = argc > 1 ? argv[1] : "sim/sagen_replay_tb.v";
  int rc;

  if (getcwd(cwd, sizeof cwd) == NULL) {
    fprintf(stderr, "test_icarus: getcwd: %s\n", strerror(errno));
    return 2;
  }
  if (tb_arg[0] == '/')
    snprintf(tb, sizeof tb, "%s", tb_arg);
  else
    snprintf(tb, sizeof tb, "%s/%s", cwd, tb_arg);
  snprintf(tmpdir, sizeof tmpdir, "/tmp/test_icarus.XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    fprintf(stderr, "test_icarus: mkdtemp: %s\n", strerror(errno));
    return 2;
  }
  if (mkdir(tpath("rtl"), 0777) != 0) {
    fprintf(stderr, "test_icarus: mkdir: %s\n", strerror(errno));
    return 2;
  }

  /* Filelists: paths relative to their own directory, with the generator's comment line. */
  write_design(tpath("rtl/tiny_top.v"), GOOD);
  write_design(tpath("rtl/tiny_x.v"), NO_MEM_INIT);
  write_design(tpath("rtl/tiny_cx.v"), NO_SCRATCH_RESET);
  write_design(tpath("rtl/tiny_bad.v"), SYNTAX_ERROR);
  write_text(tpath("rtl/tiny.f"), "// Generated by sagen from tiny.yaml; do not edit.\n\ntiny_top.v\n");
  write_text(tpath("rtl/tiny_x.f"), "// Generated by sagen\ntiny_x.v\n");
  write_text(tpath("rtl/tiny_cx.f"), "// Generated by sagen\ntiny_cx.v\n");
  write_text(tpath("rtl/tiny_bad.f"), "// Generated by sagen\ntiny_bad.v\n");
  write_text(tpath("rtl/opt.f"), "+incdir+.\ntiny_top.v\n");
  write_text(tpath("rtl/none.f"), "// nothing\n");
  write_text(tpath("pass.rec"), pass_rec);
  write_rec_variant(tpath("bad_h.rec"), "H 1234", "H 1235");
  write_rec_variant(tpath("bad_s.rec"), "S 2", "S 3");
  write_rec_variant(tpath("no_end.rec"), "E\n", "");
  write_rec_variant(tpath("bad_letter.rec"), "I 1", "Q 1");
  write_text(tpath("idle.rec"), "R 1\nC 0 2 0 0 0 0 0 0 0\nI 20\nE\n");

  test_pass_and_cache();
  expect_fail("wrong_h", tpath("rtl/tiny.f"), tpath("bad_h.rec"),
              "replay: 9 cycles, 6 checks, 1 mismatches, 0 x-checks failed");
  expect_fail("wrong_s", tpath("rtl/tiny.f"), tpath("bad_s.rec"),
              "replay: 9 cycles, 6 checks, 1 mismatches, 0 x-checks failed");
  expect_fail("x_hp_rdata", tpath("rtl/tiny_x.f"), tpath("pass.rec"),
              "replay: 9 cycles, 6 checks, 1 mismatches, 0 x-checks failed");
  {
    uint32_t *w = NULL;
    long n = 0;
    int r = icarus_read_words(tpath("out.hex"), 32, &w, &n, err, sizeof err);

    if (r != 1 || strstr(err, "x or z in value 2") == NULL)
      not_ok("x_hp_rdata_words", "expected 'x or z in value 2', got %d '%s'", r, err);
    else
      ok("x_hp_rdata_words");
    free(w);
  }
  expect_fail("x_csr_rdata", tpath("rtl/tiny_cx.f"), tpath("idle.rec"),
              "replay: 22 cycles, 0 checks, 0 mismatches, 1 x-checks failed");
  expect_fail("no_end", tpath("rtl/tiny.f"), tpath("no_end.rec"),
              "replay: error: record ends without E after cycle 9");
  expect_fail("bad_letter", tpath("rtl/tiny.f"), tpath("bad_letter.rec"),
              "replay: error: unknown record letter after cycle 2");
  expect_fail("compile_error", tpath("rtl/tiny_bad.f"), tpath("pass.rec"), "tiny_bad.v:");
  expect_fail("filelist_option", tpath("rtl/opt.f"), tpath("pass.rec"),
              "opt.f:1: filelist options are not supported");
  expect_fail("filelist_empty", tpath("rtl/none.f"), tpath("pass.rec"), "lists no files");
  expect_fail("filelist_missing", tpath("rtl/nope.f"), tpath("pass.rec"),
              "cannot open filelist");
  expect_fail("record_missing", tpath("rtl/tiny.f"), tpath("nope.rec"), "cannot read record");

  /* A relative filelist path from another directory. */
  if (chdir(tmpdir) != 0) {
    not_ok("relative_filelist", "chdir: %s", strerror(errno));
  } else {
    rc = icarus_replay("tiny_top", 4, 16, 32, "rtl/tiny.f", tb, "build_rel", "pass.rec",
                       "out_rel.hex", NULL, err, sizeof err);
    if (rc != 0)
      not_ok("relative_filelist", "expected 0, got %d: %s", rc, err);
    else
      ok("relative_filelist");
    if (chdir(cwd) != 0) {
      fprintf(stderr, "test_icarus: chdir back: %s\n", strerror(errno));
      return 2;
    }
  }

  /* No iverilog in PATH (a fresh build dir, so that it must compile). */
  {
    const char *old = getenv("PATH");
    char *saved = old == NULL ? NULL : strdup(old);

    setenv("PATH", tpath("no_such_dir"), 1);
    rc = replay(tpath("rtl/tiny.f"), tpath("build_nopath"), tpath("pass.rec"), NULL, NULL, err,
                sizeof err);
    if (saved != NULL) {
      setenv("PATH", saved, 1);
      free(saved);
    } else {
      unsetenv("PATH");
    }
    if (rc != 1 || strstr(err, "iverilog: not found") == NULL)
      not_ok("tool_missing", "expected 'iverilog: not found', got %d '%s'", rc, err);
    else
      ok("tool_missing");
  }

  rc = icarus_replay("tiny top", 4, 16, 32, tpath("rtl/tiny.f"), tb, tpath("build"),
                     tpath("pass.rec"), NULL, NULL, err, sizeof err);
  if (rc != 1 || strstr(err, "bad top module name") == NULL)
    not_ok("bad_top", "expected 'bad top module name', got %d '%s'", rc, err);
  else
    ok("bad_top");

  test_read_words();

  if (tap_failed == 0) {
    /* Leave the directory behind on failure, for a look at the logs. */
    char cmd_dir[80];
    snprintf(cmd_dir, sizeof cmd_dir, "%s", tmpdir);
    {
      char *argv_rm[] = {"rm", "-rf", cmd_dir, NULL};
      pid_t pid = fork();
      if (pid == 0) {
        execvp("rm", argv_rm);
        _exit(127);
      }
      if (pid > 0) {
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
          ;
      }
    }
  } else {
    printf("# files kept in %s\n", tmpdir);
  }
  return tap_end();
}
