/* icarus: replay a cycle record of the host driver through Icarus Verilog.
 *
 * icarus_replay rewrites the filelist with paths the compiler can open from the current
 * directory, compiles it with the replay testbench into BUILD_DIR/replay.vvp (only when that is
 * missing or stale), runs vvp on the record and judges the run by the testbench's last lines.
 * The tools run with fork/execvp, their output goes to a log file in BUILD_DIR, and no command
 * line is ever built as a shell string. */
#include "icarus.h"
#include "emit.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define ICARUS_MAX_DW (1L << 20) /* widest port accepted, bits */
#define ICARUS_MAX_AW 32         /* widest host address accepted, bits */
#define ICARUS_TB_TOP "sagen_replay_tb"

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;

  if (err == NULL || errlen == 0)
    return;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* A malloc'ed string made from FMT, or NULL when out of memory. */
static char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *str_printf(const char *fmt, ...) {
  va_list ap;
  int n;
  char *s;

  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return NULL;
  s = malloc((size_t)n + 1);
  if (s == NULL)
    return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* Read PATH into a malloc'ed, NUL-terminated *BUF of *LEN bytes. Returns 0, or -1 (errno set). */
static int slurp(const char *path, char **buf, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *b = NULL;
  size_t n = 0, cap = 0, got;

  *buf = NULL;
  *len = 0;
  if (f == NULL)
    return -1;
  for (;;) {
    if (cap - n < 4096) {
      char *nb = realloc(b, cap + 65536);
      if (nb == NULL) {
        free(b);
        fclose(f);
        errno = ENOMEM;
        return -1;
      }
      b = nb;
      cap += 65536;
    }
    got = fread(b + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror(f)) {
    free(b);
    fclose(f);
    errno = EIO;
    return -1;
  }
  fclose(f);
  b[n] = '\0';
  *buf = b;
  *len = n;
  return 0;
}

/* Write DATA to PATH through a temporary file and a rename. Returns 0, or 1 with ERR. */
static int write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen) {
  char *tmp = str_printf("%s.%ld.tmp", path, (long)getpid());
  FILE *f;
  int bad;

  if (tmp == NULL) {
    set_err(err, errlen, "out of memory");
    return 1;
  }
  f = fopen(tmp, "wb");
  if (f == NULL) {
    set_err(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
    free(tmp);
    return 1;
  }
  bad = fwrite(data, 1, len, f) != len;
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, path) != 0) {
    set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return 1;
  }
  free(tmp);
  return 0;
}

/* 1 when PATH is newer than REF or cannot be read (so that the compiler reports it). */
static int newer_than(const char *path, const struct timespec *ref) {
  struct stat st;

  if (stat(path, &st) != 0)
    return 1;
  return st.st_mtim.tv_sec > ref->tv_sec ||
         (st.st_mtim.tv_sec == ref->tv_sec && st.st_mtim.tv_nsec > ref->tv_nsec);
}

/* Copy the first non-blank line of PATH (without its end of line) into OUT. Returns 1 when
 * there is one. */
static int first_line(const char *path, char *out, size_t outlen) {
  FILE *f = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int found = 0;

  if (f == NULL)
    return 0;
  while (!found && (n = getline(&line, &cap, f)) >= 0) {
    while (n > 0 && isspace((unsigned char)line[n - 1]))
      line[--n] = '\0';
    if (n > 0) {
      snprintf(out, outlen, "%s", line);
      found = 1;
    }
  }
  free(line);
  fclose(f);
  return found;
}

/* Run ARGV[0] (searched in PATH) with stdin from /dev/null and stdout and stderr into LOG, and
 * wait for it. *STATUS gets the wait status. Returns 0 when the program ran, 1 with ERR when it
 * could not be started (not installed, log not writable). */
static int run_tool(char *const argv[], const char *log, int *status, char *err, size_t errlen) {
  int logfd, nullfd, pfd[2], child_errno = 0;
  pid_t pid;
  ssize_t n;

  logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (logfd < 0) {
    set_err(err, errlen, "cannot create %s: %s", log, strerror(errno));
    return 1;
  }
  nullfd = open("/dev/null", O_RDONLY);
  if (nullfd < 0 || pipe(pfd) != 0) {
    set_err(err, errlen, "cannot run %s: %s", argv[0], strerror(errno));
    close(logfd);
    if (nullfd >= 0)
      close(nullfd);
    return 1;
  }
  /* The write end closes on a successful exec; otherwise the child sends its errno through it. */
  fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
  fflush(NULL);
  pid = fork();
  if (pid < 0) {
    set_err(err, errlen, "cannot run %s: %s", argv[0], strerror(errno));
    close(logfd);
    close(nullfd);
    close(pfd[0]);
    close(pfd[1]);
    return 1;
  }
  if (pid == 0) {
    int e;

    close(pfd[0]);
    if (dup2(nullfd, 0) >= 0 && dup2(logfd, 1) >= 0 && dup2(logfd, 2) >= 0) {
      close(nullfd);
      close(logfd);
      execvp(argv[0], argv);
    }
    e = errno;
    if (write(pfd[1], &e, sizeof e) < 0)
      _exit(127);
    _exit(127);
  }
  close(pfd[1]);
  close(logfd);
  close(nullfd);
  do
    n = read(pfd[0], &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  close(pfd[0]);
  while (waitpid(pid, status, 0) < 0) {
    if (errno != EINTR) {
      set_err(err, errlen, "cannot wait for %s: %s", argv[0], strerror(errno));
      return 1;
    }
  }
  if (n == (ssize_t)sizeof child_errno) {
    if (child_errno == ENOENT)
      set_err(err, errlen, "%s: not found (is icarus verilog installed?)", argv[0]);
    else
      set_err(err, errlen, "cannot run %s: %s", argv[0], strerror(child_errno));
    return 1;
  }
  return 0;
}

/* A one-line description of a failed wait status. */
static void describe_status(int status, char *out, size_t outlen) {
  if (WIFEXITED(status))
    snprintf(out, outlen, "exit status %d", WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    snprintf(out, outlen, "signal %d", WTERMSIG(status));
  else
    snprintf(out, outlen, "wait status %d", status);
}

/* Read FLIST and print into KEY one line per listed file, with its path made relative to the
 * current directory (or absolute). Returns the number of files, or -1 with ERR. */
static int rewrite_filelist(const char *flist, FILE *key, char *err, size_t errlen) {
  FILE *f = fopen(flist, "r");
  const char *slash = strrchr(flist, '/');
  int dirlen = slash == NULL ? 0 : (int)(slash - flist + 1);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  long lineno = 0;
  int files = 0;

  if (f == NULL) {
    set_err(err, errlen, "cannot open filelist %s: %s", flist, strerror(errno));
    return -1;
  }
  while ((n = getline(&line, &cap, f)) >= 0) {
    char *s = line;

    lineno++;
    while (n > 0 && isspace((unsigned char)line[n - 1]))
      line[--n] = '\0';
    while (isspace((unsigned char)*s))
      s++;
    if (*s == '\0' || *s == '#' || (s[0] == '/' && s[1] == '/'))
      continue;
    if (*s == '+' || *s == '-') {
      set_err(err, errlen, "%s:%ld: filelist options are not supported: %.60s", flist, lineno, s);
      free(line);
      fclose(f);
      return -1;
    }
    if (*s == '/')
      fprintf(key, "%s\n", s);
    else if (dirlen > 0)
      fprintf(key, "%.*s%s\n", dirlen, flist, s);
    else
      fprintf(key, "./%s\n", s);
    files++;
  }
  free(line);
  if (ferror(f)) {
    set_err(err, errlen, "cannot read filelist %s", flist);
    fclose(f);
    return -1;
  }
  fclose(f);
  if (files == 0) {
    set_err(err, errlen, "filelist %s lists no files", flist);
    return -1;
  }
  return files;
}

static int valid_identifier(const char *s) {
  if (s == NULL || !(isalpha((unsigned char)*s) || *s == '_'))
    return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '$'))
      return 0;
  return 1;
}

/* Compile (when needed) BUILD_DIR/replay.vvp. Returns 0, or 1 with ERR. */
static int build_vvp(const char *top, int hp_aw, int hp_dw, int out_dw, const char *flist,
                     const char *tb_path, const char *build_dir, const char *vvp, char *err,
                     size_t errlen) {
  char *list = NULL, *old_key = NULL, *key_path = NULL, *f_path = NULL, *log_path = NULL;
  char *tmp_vvp = NULL, *d_top = NULL, *d_aw = NULL, *d_dw = NULL, *d_ow = NULL;
  char *key = NULL;
  size_t list_len = 0, old_len = 0;
  FILE *lf;
  struct stat vst;
  int rc = 1, rebuild, status;

  lf = open_memstream(&list, &list_len);
  if (lf == NULL) {
    set_err(err, errlen, "out of memory");
    return 1;
  }
  if (rewrite_filelist(flist, lf, err, errlen) < 0) {
    fclose(lf);
    free(list);
    return 1;
  }
  if (fclose(lf) != 0) {
    set_err(err, errlen, "out of memory");
    free(list);
    return 1;
  }

  key_path = str_printf("%s/replay.key", build_dir);
  f_path = str_printf("%s/replay.f", build_dir);
  log_path = str_printf("%s/iverilog.log", build_dir);
  tmp_vvp = str_printf("%s/replay.vvp.%ld.tmp", build_dir, (long)getpid());
  d_top = str_printf("-DSAGEN_TOP=%s", top);
  d_aw = str_printf("-DHP_AW=%d", hp_aw);
  d_dw = str_printf("-DHP_DW=%d", hp_dw);
  d_ow = str_printf("-DOUT_DW=%d", out_dw);
  key = str_printf("iverilog -g2005 -s %s %s %s %s %s tb=%s\n%s", ICARUS_TB_TOP, d_top, d_aw, d_dw,
                   d_ow, tb_path, list);
  if (!key_path || !f_path || !log_path || !tmp_vvp || !d_top || !d_aw || !d_dw || !d_ow || !key) {
    set_err(err, errlen, "out of memory");
    goto out;
  }

  /* Stale when missing, built from other sources or settings, or older than a source. */
  rebuild = stat(vvp, &vst) != 0;
  if (!rebuild)
    rebuild = slurp(key_path, &old_key, &old_len) != 0 || strcmp(old_key, key) != 0;
  if (!rebuild)
    rebuild = newer_than(flist, &vst.st_mtim) || newer_than(tb_path, &vst.st_mtim);
  for (char *p = list; !rebuild && *p; p = strchr(p, '\n') + 1) {
    char *nl = strchr(p, '\n');

    *nl = '\0';
    rebuild = newer_than(p, &vst.st_mtim);
    *nl = '\n';
  }
  if (!rebuild) {
    rc = 0;
    goto out;
  }

  if (write_atomic(f_path, list, list_len, err, errlen) != 0)
    goto out;
  {
    char *argv[] = {"iverilog", "-g2005", "-o", tmp_vvp, "-s", ICARUS_TB_TOP, d_top, d_aw, d_dw,
                    d_ow, "-c", f_path, (char *)tb_path, NULL};
    char line[512], how[64];

    if (run_tool(argv, log_path, &status, err, errlen) != 0)
      goto out;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      if (first_line(log_path, line, sizeof line))
        set_err(err, errlen, "%s", line);
      else {
        describe_status(status, how, sizeof how);
        set_err(err, errlen, "iverilog failed with %s", how);
      }
      unlink(tmp_vvp);
      goto out;
    }
  }
  if (rename(tmp_vvp, vvp) != 0) {
    set_err(err, errlen, "cannot rename %s to %s: %s", tmp_vvp, vvp, strerror(errno));
    unlink(tmp_vvp);
    goto out;
  }
  if (write_atomic(key_path, key, strlen(key), err, errlen) != 0)
    goto out;
  rc = 0;
out:
  free(list);
  free(old_key);
  free(key_path);
  free(f_path);
  free(log_path);
  free(tmp_vvp);
  free(d_top);
  free(d_aw);
  free(d_dw);
  free(d_ow);
  free(key);
  return rc;
}

/* Judge vvp's output in LOG. Returns 0 on a passing replay, or 1 with ERR. */
static int judge_log(const char *log, int status, char *err, size_t errlen) {
  FILE *f = fopen(log, "r");
  char *line = NULL, *summary = NULL, *error = NULL, *first = NULL, *last = NULL;
  size_t cap = 0;
  ssize_t n;
  int rc = 1;
  char how[64];

  if (f == NULL) {
    set_err(err, errlen, "cannot read %s: %s", log, strerror(errno));
    return 1;
  }
  while ((n = getline(&line, &cap, f)) >= 0) {
    while (n > 0 && isspace((unsigned char)line[n - 1]))
      line[--n] = '\0';
    if (n == 0)
      continue;
    if (first == NULL)
      first = strdup(line);
    free(last);
    last = strdup(line);
    if (error == NULL && strncmp(line, "replay: error: ", 15) == 0)
      error = strdup(line);
    if (strncmp(line, "replay: ", 8) == 0 && strstr(line, " cycles, ") != NULL &&
        strstr(line, " x-checks failed") != NULL) {
      free(summary);
      summary = strdup(line);
    }
  }
  free(line);
  fclose(f);

  describe_status(status, how, sizeof how);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (summary == NULL && first != NULL)
      set_err(err, errlen, "vvp failed with %s: %s", how, first);
    else
      set_err(err, errlen, "vvp failed with %s (see %s)", how, log);
  } else if (summary != NULL && last != NULL && strcmp(last, "replay: PASS") == 0) {
    rc = 0;
  } else if (error != NULL) {
    set_err(err, errlen, "%s (see %s)", error, log);
  } else if (summary != NULL) {
    set_err(err, errlen, "%s (see %s)", summary, log);
  } else if (first != NULL) {
    set_err(err, errlen, "vvp printed no replay summary: %s", first);
  } else {
    set_err(err, errlen, "vvp printed no replay summary (see %s)", log);
  }
  free(summary);
  free(error);
  free(first);
  free(last);
  return rc;
}

int icarus_replay(const char *top, int hp_aw, int hp_dw, int out_dw, const char *flist,
                  const char *tb_path, const char *build_dir, const char *rec,
                  const char *out_hex, const char *vcd, char *err, size_t errlen) {
  char *vvp = NULL, *log = NULL, *p_rec = NULL, *p_out = NULL, *p_vcd = NULL;
  char *argv[10];
  int argc = 0, status, rc = 1;

  if (err != NULL && errlen > 0)
    err[0] = '\0';
  if (!valid_identifier(top)) {
    set_err(err, errlen, "bad top module name '%s'", top == NULL ? "" : top);
    return 1;
  }
  if (hp_aw < 1 || hp_aw > ICARUS_MAX_AW || hp_dw < 1 || hp_dw > ICARUS_MAX_DW || out_dw < 1 ||
      out_dw > ICARUS_MAX_DW) {
    set_err(err, errlen, "bad port widths hp_aw=%d hp_dw=%d out_dw=%d", hp_aw, hp_dw, out_dw);
    return 1;
  }
  if (flist == NULL || tb_path == NULL || build_dir == NULL || rec == NULL) {
    set_err(err, errlen, "icarus replay needs a filelist, a testbench, a build dir and a record");
    return 1;
  }
  if (access(tb_path, R_OK) != 0) {
    set_err(err, errlen, "cannot read testbench %s: %s", tb_path, strerror(errno));
    return 1;
  }
  if (access(rec, R_OK) != 0) {
    set_err(err, errlen, "cannot read record %s: %s", rec, strerror(errno));
    return 1;
  }
  if (emit_mkdirs(build_dir) != 0) {
    set_err(err, errlen, "%s: cannot create directory: %s", build_dir, strerror(errno));
    return 1;
  }

  vvp = str_printf("%s/replay.vvp", build_dir);
  log = str_printf("%s/replay.log", build_dir);
  p_rec = str_printf("+rec=%s", rec);
  if (out_hex != NULL)
    p_out = str_printf("+out=%s", out_hex);
  if (vcd != NULL && vcd[0] != '\0')
    p_vcd = str_printf("+vcd=%s", vcd);
  if (!vvp || !log || !p_rec || (out_hex != NULL && !p_out) ||
      (vcd != NULL && vcd[0] != '\0' && !p_vcd)) {
    set_err(err, errlen, "out of memory");
    goto out;
  }
  if (build_vvp(top, hp_aw, hp_dw, out_dw, flist, tb_path, build_dir, vvp, err, errlen) != 0)
    goto out;
  if (out_hex != NULL && unlink(out_hex) != 0 && errno != ENOENT) {
    set_err(err, errlen, "cannot remove %s: %s", out_hex, strerror(errno));
    goto out;
  }

  argv[argc++] = "vvp";
  argv[argc++] = "-n";
  argv[argc++] = vvp;
  argv[argc++] = p_rec;
  if (p_out != NULL)
    argv[argc++] = p_out;
  if (p_vcd != NULL) {
    argv[argc++] = p_vcd;
    size_t n = strlen(vcd);
    if (n >= 4 && strcmp(vcd + n - 4, ".fst") == 0)
      argv[argc++] = "-fst";   /* vvp's extended argument: $dumpfile writes FST */
  }
  argv[argc] = NULL;
  if (run_tool(argv, log, &status, err, errlen) != 0)
    goto out;
  rc = judge_log(log, status, err, errlen);
out:
  free(vvp);
  free(log);
  free(p_rec);
  free(p_out);
  free(p_vcd);
  return rc;
}

static int hex_digit(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int icarus_read_words(const char *out_hex, int out_dw, uint32_t **words, long *n_words,
                      char *err, size_t errlen) {
  FILE *f;
  char *line = NULL;
  size_t cap = 0, nw, have = 0, room = 0;
  ssize_t n;
  long lineno = 0, count = 0;
  int max_digits;
  uint32_t *w = NULL;

  *words = NULL;
  *n_words = 0;
  if (out_dw < 1 || out_dw > ICARUS_MAX_DW) {
    set_err(err, errlen, "bad output width %d", out_dw);
    return 1;
  }
  nw = ((size_t)out_dw + 31) / 32;
  max_digits = (out_dw + 3) / 4;
  f = fopen(out_hex, "r");
  if (f == NULL) {
    set_err(err, errlen, "cannot open %s: %s", out_hex, strerror(errno));
    return 1;
  }
  while ((n = getline(&line, &cap, f)) >= 0) {
    char *s = line;
    size_t len;

    lineno++;
    while (n > 0 && isspace((unsigned char)line[n - 1]))
      line[--n] = '\0';
    while (isspace((unsigned char)*s))
      s++;
    len = strlen(s);
    if (len == 0)
      continue;
    if (len > (size_t)max_digits) {
      set_err(err, errlen, "%s:%ld: more than %d hex digits", out_hex, lineno, max_digits);
      goto fail;
    }
    if (have + nw > room) {
      size_t nroom = room == 0 ? 64 * nw : room * 2;
      uint32_t *nwp = realloc(w, nroom * sizeof *w);

      if (nwp == NULL) {
        set_err(err, errlen, "out of memory reading %s", out_hex);
        goto fail;
      }
      w = nwp;
      room = nroom;
    }
    memset(w + have, 0, nw * sizeof *w);
    for (size_t j = 0; j < len; j++) {
      int c = (unsigned char)s[len - 1 - j], d = hex_digit(c);

      if (d < 0) {
        if (c == 'x' || c == 'X' || c == 'z' || c == 'Z')
          set_err(err, errlen, "%s:%ld: x or z in value %ld", out_hex, lineno, count);
        else
          set_err(err, errlen, "%s:%ld: not a hex number", out_hex, lineno);
        goto fail;
      }
      w[have + j / 8] |= (uint32_t)d << (4 * (j % 8));
    }
    if (out_dw % 32 != 0 && (w[have + nw - 1] >> (out_dw % 32)) != 0) {
      set_err(err, errlen, "%s:%ld: value wider than %d bits", out_hex, lineno, out_dw);
      goto fail;
    }
    have += nw;
    count++;
  }
  if (ferror(f)) {
    set_err(err, errlen, "cannot read %s", out_hex);
    goto fail;
  }
  free(line);
  fclose(f);
  *words = w;
  *n_words = count;
  return 0;
fail:
  free(line);
  free(w);
  fclose(f);
  return 1;
}
