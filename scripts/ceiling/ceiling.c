/*
 * The machine's ceiling for the speed goals of the library's row-wise
 * operations, transposing copies and sort: plain C on every core (OpenMP),
 * with no OpenCL in between, on the same sizes as `bench_report`:
 *
 *   - a copy of [4096, 4096] f32, a row a `memcpy` (the anchor);
 *   - softmax of its rows: a maximum, `expf` and sums, a division, each a
 *     `#pragma omp simd` loop (with -ffast-math GCC calls glibc's vector
 *     `expf`; without it, the scalar `expf` once per element);
 *   - the transpose, in T x T tiles of 8 x 8 blocks, each block eight AVX
 *     loads, the transpose in registers (unpack, shuffle, permute) and eight
 *     AVX stores;
 *   - a stable least-significant-digit radix sort of 2^24 standard normal
 *     f32 with their indices (4 passes of 8 bits, one chunk a thread: counts,
 *     offsets, scatter), giving the values and `int64` indices, as silt's
 *     `sort` does;
 *   - a stable bucket sort of the same, whose passes after the first stay
 *     in the cache: a count of the keys' top 16 bits, those 65,536 bins
 *     cut into buckets of at most BUCKET elements (a bin is never cut),
 *     each thread's chunk scattered into the buckets as (key, index) packed
 *     in a `u64`, then each bucket (a thread each, in turns) sorted by a
 *     least-significant-digit radix sort of its keys' low 16 bits and the
 *     bin within the bucket, the last pass writing the values and indices.
 *
 * Built and run by scripts/ceiling/run (docs/performance.md, "The
 * machine's ceiling"). Needs x86-64 with AVX2.
 */
#include <immintrin.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 4096
#define SORT_N (1 << 24)

static float *x, *y;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void copy(void) {
#pragma omp parallel for schedule(static)
  for (int r = 0; r < N; r++) memcpy(y + (size_t)r * N, x + (size_t)r * N, N * 4);
}

static void softmax(void) {
#pragma omp parallel for schedule(static)
  for (int r = 0; r < N; r++) {
    const float *a = x + (size_t)r * N;
    float *b = y + (size_t)r * N;
    float m = -INFINITY;
#pragma omp simd reduction(max : m)
    for (int i = 0; i < N; i++) m = a[i] > m ? a[i] : m;
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (int i = 0; i < N; i++) {
      float e = expf(a[i] - m);
      b[i] = e;
      s += e;
    }
#pragma omp simd
    for (int i = 0; i < N; i++) b[i] /= s;
  }
}

/* y[j][i] = x[i][j] for the 8 x 8 block at (i, j) */
static inline void block(size_t i, size_t j) {
  __m256 r[8], t[8], s[8];
  for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_ps(x + (i + k) * N + j);
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  for (int k = 0; k < 8; k += 4) {
    s[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
    s[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
    s[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
    s[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
  }
  for (int k = 0; k < 4; k++) {
    _mm256_storeu_ps(y + (j + k) * N + i, _mm256_permute2f128_ps(s[k], s[k + 4], 0x20));
    _mm256_storeu_ps(y + (j + k + 4) * N + i, _mm256_permute2f128_ps(s[k], s[k + 4], 0x31));
  }
}

static int tile = 32;

static void transpose(void) {
  const int t = tile;
#pragma omp parallel for schedule(static) collapse(2)
  for (int bi = 0; bi < N; bi += t)
    for (int bj = 0; bj < N; bj += t)
      for (int i = bi; i < bi + t; i += 8)
        for (int j = bj; j < bj + t; j += 8) block(i, j);
}

static float *xs, *vals;
static int64_t *idx;
static uint32_t *k0, *k1, *i0, *i1;

static inline uint32_t key(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

static void sort(void) {
  static uint32_t counts[256][256];
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), threads = omp_get_num_threads();
    const size_t lo = (size_t)SORT_N * t / threads, hi = (size_t)SORT_N * (t + 1) / threads;
    uint32_t *ka = k0, *kb = k1, *ia = i0, *ib = i1;
    for (size_t i = lo; i < hi; i++) {
      ka[i] = key(xs[i]);
      ia[i] = (uint32_t)i;
    }
    for (int shift = 0; shift < 32; shift += 8) {
      uint32_t c[256] = {0}, off[256];
      for (size_t i = lo; i < hi; i++) c[(ka[i] >> shift) & 255]++;
      memcpy(counts[t], c, sizeof c);
#pragma omp barrier
      size_t base = 0;
      for (int d = 0; d < 256; d++)
        for (int u = 0; u < threads; u++) {
          if (u == t) off[d] = (uint32_t)base;
          base += counts[u][d];
        }
      for (size_t i = lo; i < hi; i++) {
        const uint32_t k = ka[i], o = off[(k >> shift) & 255]++;
        kb[o] = k;
        ib[o] = ia[i];
      }
#pragma omp barrier
      uint32_t *s = ka;
      ka = kb;
      kb = s;
      s = ia;
      ia = ib;
      ib = s;
    }
    for (size_t i = lo; i < hi; i++) {
      const uint32_t k = ka[i], u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
      memcpy(&vals[i], &u, 4);
      idx[i] = ia[i];
    }
  }
}

/* The bucket sort: BUCKET elements of 8 bytes, twice, stay in a core's L2. */
#define BUCKET 24576
static uint64_t *packed;
static uint32_t bins[2][65536], bucket_of_bin[65536], bucket_start[65537], first_bin[65536],
    last_bin[65536], chunk_offset[2][65536], buckets;

static inline float value(uint32_t k) {
  const uint32_t u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* The digit `d` of a packed (key, index) in bucket with first bin `f`: the
 * key's bits 0-7 and 8-15, then the bin (the key's top 16 bits) less `f`. */
static inline uint32_t digit(uint64_t v, int d, uint32_t f) {
  return d < 2 ? (uint32_t)(v >> (32 + 8 * d)) & 255 : (((uint32_t)(v >> 48) - f) >> (8 * (d - 2))) & 255;
}

static void bucket_sort(void) {
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), threads = omp_get_num_threads();
    const size_t lo = (size_t)SORT_N * t / threads, hi = (size_t)SORT_N * (t + 1) / threads;
    uint32_t *h = bins[t];
    memset(h, 0, sizeof bins[0]);
    for (size_t i = lo; i < hi; i++) h[key(xs[i]) >> 16]++;
#pragma omp barrier
#pragma omp single
    {
      uint32_t b = 0, fill = 0;
      bucket_start[0] = 0;
      first_bin[0] = 0;
      for (uint32_t g = 0; g < 65536; g++) {
        uint32_t c = 0;
        for (int u = 0; u < threads; u++) c += bins[u][g];
        if (fill > 0 && fill + c > BUCKET) {
          last_bin[b] = g - 1;
          bucket_start[b + 1] = bucket_start[b] + fill;
          first_bin[++b] = g;
          fill = 0;
        }
        bucket_of_bin[g] = b;
        fill += c;
      }
      last_bin[b] = 65535;
      buckets = b + 1;
      bucket_start[buckets] = SORT_N;
      for (uint32_t k = 0; k < buckets; k++) {
        uint32_t o = bucket_start[k];
        for (int u = 0; u < threads; u++) {
          chunk_offset[u][k] = o;
          for (uint32_t g = first_bin[k]; g <= last_bin[k]; g++) o += bins[u][g];
        }
      }
    }
    uint32_t *off = chunk_offset[t];
    for (size_t i = lo; i < hi; i++) {
      const uint32_t k = key(xs[i]);
      packed[off[bucket_of_bin[k >> 16]]++] = (uint64_t)k << 32 | (uint32_t)i;
    }
#pragma omp barrier
    size_t room = BUCKET;
    uint64_t *scratch = malloc(room * 8);
#pragma omp for schedule(dynamic, 4)
    for (uint32_t k = 0; k < buckets; k++) {
      const uint32_t s = bucket_start[k], n = bucket_start[k + 1] - s, f = first_bin[k];
      if (n == 0) continue;
      if (n > room) { /* one bin above BUCKET */
        free(scratch);
        scratch = malloc((room = n) * 8);
      }
      const int passes = last_bin[k] - f < 256 ? 3 : 4;
      uint32_t c[4][256];
      memset(c, 0, sizeof c);
      uint64_t *a = packed + s, *b = scratch;
      for (uint32_t i = 0; i < n; i++)
        for (int d = 0; d < passes; d++) c[d][digit(a[i], d, f)]++;
      for (int d = 0; d < passes; d++) {
        uint32_t o = 0;
        for (int e = 0; e < 256; e++) {
          const uint32_t m = c[d][e];
          c[d][e] = o;
          o += m;
        }
      }
      for (int d = 0; d + 1 < passes; d++) {
        for (uint32_t i = 0; i < n; i++) b[c[d][digit(a[i], d, f)]++] = a[i];
        uint64_t *q = a;
        a = b;
        b = q;
      }
      for (uint32_t i = 0; i < n; i++) {
        const uint32_t p = s + c[passes - 1][digit(a[i], passes - 1, f)]++;
        vals[p] = value((uint32_t)(a[i] >> 32));
        idx[p] = (uint32_t)a[i];
      }
    }
    free(scratch);
  }
}

static double best(void (*f)(void), int runs) {
  double b = 1e9;
  for (int k = 0; k < runs; k++) {
    double t = now();
    f();
    t = now() - t;
    if (t < b) b = t;
  }
  return b * 1e3;
}

/* Whether vals and idx hold xs sorted, stably. */
static int sorted(const char *what) {
  for (size_t i = 0; i < SORT_N; i++)
    if (idx[i] < 0 || idx[i] >= SORT_N || xs[idx[i]] != vals[i] ||
        (i > 0 && (vals[i - 1] > vals[i] || (vals[i - 1] == vals[i] && idx[i - 1] >= idx[i])))) {
      printf("%s is wrong at %zu\n", what, i);
      return 0;
    }
  return 1;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 3;
  x = aligned_alloc(64, (size_t)N * N * 4);
  y = aligned_alloc(64, (size_t)N * N * 4);
  srand(1);
  for (size_t i = 0; i < (size_t)N * N; i++) x[i] = (float)rand() / RAND_MAX * 4 - 2;
  memset(y, 0, (size_t)N * N * 4);
  xs = malloc(SORT_N * 4);
  vals = malloc(SORT_N * 4);
  idx = malloc(SORT_N * 8);
  k0 = malloc(SORT_N * 4);
  k1 = malloc(SORT_N * 4);
  i0 = malloc(SORT_N * 4);
  i1 = malloc(SORT_N * 4);
  packed = malloc(SORT_N * 8);
  for (size_t i = 0; i < SORT_N; i++) {
    const double u1 = (rand() + 1.0) / (RAND_MAX + 2.0), u2 = (rand() + 1.0) / (RAND_MAX + 2.0);
    xs[i] = (float)(sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
  }
  printf("threads %d; ms, best of 9 (the sorts: of 3); of the copy\n", omp_get_max_threads());
  for (int r = 0; r < rounds; r++) {
    const double c = best(copy, 9), s = best(softmax, 9);
    printf("copy %.2f ms (%.1f GB/s) | softmax %.2f ms (%.2fx)", c, 2.0 * N * N * 4 / c / 1e6, s,
           c / s);
    for (tile = 8; tile <= 128; tile *= 2) {
      const double t = best(transpose, 9);
      printf(" | transpose T=%d %.2f ms (%.2fx)", tile, t, c / t);
    }
    const double lsd = best(sort, 3), bucket = best(bucket_sort, 3);
    printf(" | sort %.1f ms | bucket sort %.1f ms (%u buckets)\n", lsd, bucket, buckets);
    fflush(stdout);
  }
  for (int k = 0; k < 100000; k++) {
    const size_t i = (size_t)rand() % N, j = (size_t)rand() % N;
    if (y[j * N + i] != x[i * N + j]) {
      puts("the transpose is wrong");
      return 1;
    }
  }
  sort();
  if (!sorted("the sort")) return 1;
  bucket_sort();
  return sorted("the bucket sort") ? 0 : 1;
}
