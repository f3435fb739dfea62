#ifndef REWIND_LINE_LZ4_H
#define REWIND_LINE_LZ4_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Writes standard LZ4 frames (magic 0x184D2204; 64 KiB linked blocks; block and content
// checksums; no content size in the header) in parts, tuned for JSON Lines whose lines repeat
// one another: every liblz4 decoder and `lz4 -dc` reads them. Each part's bytes become the
// frame's next blocks; a part that `ends` also gets the end mark and the content checksum.
//
// The match finder is ours: at each position it tries a few cheap candidates and keeps the
// longest (the last match's offset; the last line whose bytes were the same as the current
// line's, at the same column; the eight latest positions whose next 5 bytes hashed alike),
// then looks one byte further on when the match is short. On recorded step lines it stores
// between 5 % less and 13 % more than LZ4's high-compression level 3, for a quarter to a half
// of its instructions.

// The implementation is in this header, as static inline functions compiled into the module
// that calls them (TraceKit): a C file's own debug information is DWARF 5, which the
// valgrind on our hosts cannot read beside another C target's, and callgrind is how we
// measure the writer. Formats: the LZ4 frame format (header, blocks, end mark) and block
// format (sequences of a token, literals, a 2-byte offset and length bytes), and XXH32, all
// from their published specifications.
//
// The interface:
//
// - `rewind_line_lz4_create()`: a stream with no frame open, or NULL when memory is short;
//   `rewind_line_lz4_free(stream)`.
// - `rewind_line_lz4_bound(count)`: the most bytes `rewind_line_lz4_part` writes for `count`
//   bytes (a header, the blocks and an end mark).
// - `rewind_line_lz4_part(stream, bytes, count, ends, destination)`: appends `count` bytes to
//   the open frame (beginning one, with its header, if none is open) and writes the frame's
//   next bytes to `destination` (room for `rewind_line_lz4_bound(count)`); with `ends`
//   nonzero, also the end mark and content checksum, which closes the frame. Returns the
//   bytes written, or SIZE_MAX when memory is short or the frame would pass 4 GiB (the frame
//   is then closed and its bytes so far are not a whole frame).
// - `rewind_line_lz4_is_open(stream)`: whether a frame has begun and not yet ended.
// - `rewind_xxh32(bytes, count)`: XXH32 with seed 0, the checksum LZ4 frames carry.

typedef struct rewind_line_lz4 rewind_line_lz4;

enum {
  // The farthest back a match may reach (a 2-byte offset).
  LLZ_WINDOW = 65535,
  LLZ_MIN_MATCH = 4,
  // A block's last 5 bytes are literals, and its last match starts at least 12 bytes before
  // its end (the block format's end rules, which let decoders copy in wide words).
  LLZ_LAST_LITERALS = 5,
  LLZ_MATCH_START_MARGIN = 12,
  LLZ_BLOCK_MAX = 65536,
  LLZ_HASH_LOG = 11,
  // Positions kept per hash slot: the eight latest, tried in turn.
  LLZ_WAYS = 8,
  LLZ_LINE_LOG = 10,
  // A match shorter than this is checked against the one at the next byte (it may be the
  // start of a longer one); longer ones are taken at once.
  LLZ_LOOK_AHEAD_BELOW = 64,
  // After 8 positions in a row without a match the search steps 2 bytes, after 16 3 bytes…
  // (runs of new text, such as ids, cost few probes).
  LLZ_SKIP_LOG = 3,
};

struct rewind_line_lz4 {
  // The frame's content from `bufferStart` on, at least the last LLZ_WINDOW bytes of it;
  // positions are offsets in the frame's content.
  uint8_t *buffer;
  uint32_t bufferStart;
  uint32_t length;
  uint32_t capacity;
  // The content checksum has run over [0, hashed), a multiple of 16.
  uint32_t hashed;
  uint32_t lanes[4];
  int open;
  // The last match's offset.
  uint32_t lastOffset;
  // Candidates: positions only, always checked against the bytes, so an entry left from an
  // earlier frame costs a probe and never a wrong match.
  uint32_t positions[(1u << LLZ_HASH_LOG) * LLZ_WAYS];
  uint32_t lines[1u << LLZ_LINE_LOG];
};

static inline uint32_t llz_read32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static inline uint64_t llz_read64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static inline void llz_write32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

// MARK: XXH32

static const uint32_t LLZ_PRIME1 = 0x9E3779B1u, LLZ_PRIME2 = 0x85EBCA77u, LLZ_PRIME3 = 0xC2B2AE3Du,
                      LLZ_PRIME4 = 0x27D4EB2Fu, LLZ_PRIME5 = 0x165667B1u;

static inline uint32_t llz_rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

static inline uint32_t llz_xxh_round(uint32_t lane, uint32_t input) {
  return llz_rotl32(lane + input * LLZ_PRIME2, 13) * LLZ_PRIME1;
}

static inline void llz_xxh_start(uint32_t lanes[4]) {
  lanes[0] = LLZ_PRIME1 + LLZ_PRIME2;
  lanes[1] = LLZ_PRIME2;
  lanes[2] = 0;
  lanes[3] = 0u - LLZ_PRIME1;
}

static inline void llz_xxh_stripes(uint32_t lanes[4], const uint8_t *p, size_t stripes) {
  uint32_t a = lanes[0], b = lanes[1], c = lanes[2], d = lanes[3];
  for (; stripes > 0; stripes--, p += 16) {
    a = llz_xxh_round(a, llz_read32(p));
    b = llz_xxh_round(b, llz_read32(p + 4));
    c = llz_xxh_round(c, llz_read32(p + 8));
    d = llz_xxh_round(d, llz_read32(p + 12));
  }
  lanes[0] = a;
  lanes[1] = b;
  lanes[2] = c;
  lanes[3] = d;
}

// The digest of `total` bytes whose whole 16-byte stripes went through `lanes` and whose last
// `total % 16` bytes are `rest`.
static inline uint32_t llz_xxh_finish(
  const uint32_t lanes[4], const uint8_t *rest, uint64_t total)
{
  uint32_t h = total >= 16
    ? llz_rotl32(lanes[0], 1) + llz_rotl32(lanes[1], 7) + llz_rotl32(lanes[2], 12)
      + llz_rotl32(lanes[3], 18)
    : LLZ_PRIME5;
  h += (uint32_t)total;
  size_t n = (size_t)(total & 15);
  for (; n >= 4; n -= 4, rest += 4)
    h = llz_rotl32(h + llz_read32(rest) * LLZ_PRIME3, 17) * LLZ_PRIME4;
  for (; n > 0; n--, rest++) h = llz_rotl32(h + (*rest) * LLZ_PRIME5, 11) * LLZ_PRIME1;
  h ^= h >> 15;
  h *= LLZ_PRIME2;
  h ^= h >> 13;
  h *= LLZ_PRIME3;
  h ^= h >> 16;
  return h;
}

static inline uint32_t rewind_xxh32(const void *bytes, size_t count) {
  uint32_t lanes[4];
  llz_xxh_start(lanes);
  llz_xxh_stripes(lanes, bytes, count / 16);
  return llz_xxh_finish(lanes, (const uint8_t *)bytes + (count & ~(size_t)15), count);
}

// MARK: Sequences

static inline uint8_t *llz_put_length(uint8_t *op, size_t extra) {
  for (; extra >= 255; extra -= 255) *op++ = 255;
  *op++ = (uint8_t)extra;
  return op;
}

static inline uint8_t *llz_put_literals(
  uint8_t *op, uint8_t *token, const uint8_t *literals, size_t count)
{
  *token = (uint8_t)((count < 15 ? count : 15) << 4);
  if (count >= 15) op = llz_put_length(op, count - 15);
  memcpy(op, literals, count);
  return op + count;
}

static inline uint8_t *llz_put_sequence(
  uint8_t *op, const uint8_t *literals, size_t literalCount, uint32_t offset, size_t length)
{
  uint8_t *token = op++;
  op = llz_put_literals(op, token, literals, literalCount);
  size_t extra = length - LLZ_MIN_MATCH;
  *token |= (uint8_t)(extra < 15 ? extra : 15);
  op[0] = (uint8_t)offset;
  op[1] = (uint8_t)(offset >> 8);
  op += 2;
  if (extra >= 15) op = llz_put_length(op, extra - 15);
  return op;
}

// MARK: Matching

// How many bytes from `a` (up to `limit`) equal those from `b`.
static inline size_t llz_common_length(const uint8_t *a, const uint8_t *b, const uint8_t *limit) {
  const uint8_t *start = a;
  while (a + 8 <= limit) {
    uint64_t diff = llz_read64(a) ^ llz_read64(b);
    if (diff) return (size_t)(a - start) + (size_t)(__builtin_ctzll(diff) >> 3);
    a += 8;
    b += 8;
  }
  while (a < limit && *a == *b) {
    a++;
    b++;
  }
  return (size_t)(a - start);
}

// The slot of the 5 bytes at `p` (little-endian loads; the top 3 bytes shifted out).
static inline uint32_t llz_slot_of(const uint8_t *p) {
  return (uint32_t)(((llz_read64(p) << 24) * 0x9E3779B97F4A7C15ull) >> (64 - LLZ_HASH_LOG));
}

static inline void llz_remember(rewind_line_lz4 *s, const uint8_t *p, uint32_t position) {
  uint32_t *ways = s->positions + llz_slot_of(p) * LLZ_WAYS;
  for (unsigned w = LLZ_WAYS - 1; w > 0; w--) ways[w] = ways[w - 1];
  ways[0] = position;
}

typedef struct {
  rewind_line_lz4 *s;
  const uint8_t *base;  // base + position = the byte's address
  uint32_t lowest;      // the first position still in the buffer
  uint32_t end;         // the block's end
  const uint8_t *matchLimit;
  // The next line's start, and the offset back to the last earlier line equal to the current
  // one (0 when there is none in the window).
  uint32_t nextLine;
  uint32_t lineOffset;
} llz_block_parse;

// Registers the lines that begin at or before `position` (a line's key is all its bytes).
static inline void llz_reach_line(llz_block_parse *c, uint32_t position) {
  while (position >= c->nextLine) {
    uint32_t start = c->nextLine;
    const uint8_t *line = c->base + start;
    const uint8_t *newline = memchr(line, '\n', c->end - start);
    c->lineOffset = 0;
    if (!newline) {
      // A line cut by the block's end: not a key.
      c->nextLine = c->end;
      return;
    }
    c->nextLine = (uint32_t)(newline - c->base) + 1;
    size_t count = (size_t)(newline - line);
    if (count < 8) continue;
    uint64_t h = count;
    for (const uint8_t *q = line; q + 8 <= newline; q += 8)
      h = (((h << 27) | (h >> 37)) ^ llz_read64(q)) * 0x9E3779B97F4A7C15ull;
    h = (((h << 27) | (h >> 37)) ^ llz_read64(newline - 8)) * 0x9E3779B97F4A7C15ull;
    uint32_t *entry = c->s->lines + (h >> (64 - LLZ_LINE_LOG));
    uint32_t earlier = *entry;
    *entry = start;
    if (earlier < start && start - earlier <= LLZ_WINDOW && earlier >= c->lowest)
      c->lineOffset = start - earlier;
  }
}

// Makes the match `offset` back the best when it is longer than `*best`. It is extended only
// when it also matches at `*best`, the first byte that could make it longer.
static inline __attribute__((always_inline)) void llz_try(
  const llz_block_parse *c, const uint8_t *p, size_t available, uint32_t offset, size_t *best,
  uint32_t *bestOffset)
{
  size_t atLeast = *best;
  const uint8_t *from = p - offset;
  if (atLeast < available && p[atLeast] == from[atLeast] && llz_read32(p) == llz_read32(from)) {
    size_t length =
      LLZ_MIN_MATCH + llz_common_length(p + LLZ_MIN_MATCH, from + LLZ_MIN_MATCH, c->matchLimit);
    if (length > atLeast) {
      *best = length;
      *bestOffset = offset;
    }
  }
}

// The longest match at `position` longer than `atLeast` bytes among the candidates (0 when
// none is), with its offset in `offset`; remembers the position.
static inline __attribute__((always_inline)) size_t llz_longest_match(
  llz_block_parse *c, uint32_t position, size_t atLeast, uint32_t *offset)
{
  rewind_line_lz4 *s = c->s;
  const uint8_t *p = c->base + position;
  size_t available = (size_t)(c->matchLimit - p);
  size_t best = atLeast;
  uint32_t bestOffset = 0;
  uint32_t last = s->lastOffset;
  uint32_t reach = position - c->lowest;
  if (last != 0 && last <= reach) llz_try(c, p, available, last, &best, &bestOffset);
  llz_reach_line(c, position);
  uint32_t line = c->lineOffset;
  if (line != 0 && line != last && line <= reach)
    llz_try(c, p, available, line, &best, &bestOffset);
  uint32_t *ways = s->positions + llz_slot_of(p) * LLZ_WAYS;
  for (unsigned w = 0; w < LLZ_WAYS; w++) {
    // Earlier and within the window (the window never reaches before `lowest`).
    uint32_t distance = position - ways[w];
    if (distance - 1 < LLZ_WINDOW) llz_try(c, p, available, distance, &best, &bestOffset);
  }
  for (unsigned w = LLZ_WAYS - 1; w > 0; w--) ways[w] = ways[w - 1];
  ways[0] = position;
  *offset = bestOffset;
  return bestOffset != 0 ? best : 0;
}

// Writes the block of the content's [start, end) as sequences to `op`; returns their end.
static inline uint8_t *llz_encode_block(
  rewind_line_lz4 *s, uint32_t start, uint32_t end, uint8_t *op)
{
  const uint8_t *base = s->buffer - s->bufferStart;
  uint32_t anchor = start;
  if (end - start > LLZ_MATCH_START_MARGIN) {
    uint32_t startLimit = end - LLZ_MATCH_START_MARGIN;
    llz_block_parse c = {
      .s = s, .base = base, .lowest = s->bufferStart, .end = end,
      .matchLimit = base + end - LLZ_LAST_LITERALS, .nextLine = start, .lineOffset = 0,
    };
    uint32_t position = start, misses = 0;
    while (position < startLimit) {
      uint32_t offset;
      size_t length = llz_longest_match(&c, position, LLZ_MIN_MATCH - 1, &offset);
      if (length == 0) {
        position += 1 + (misses++ >> LLZ_SKIP_LOG);
        continue;
      }
      misses = 0;
      while (length < LLZ_LOOK_AHEAD_BELOW && position + 1 < startLimit) {
        uint32_t nextOffset;
        size_t next = llz_longest_match(&c, position + 1, length + 1, &nextOffset);
        if (next == 0) break;
        position++;
        length = next;
        offset = nextOffset;
      }
      while (position > anchor && position - offset > c.lowest
        && base[position - 1] == base[position - 1 - offset])
      {
        position--;
        length++;
      }
      op = llz_put_sequence(op, base + anchor, position - anchor, offset, length);
      s->lastOffset = offset;
      position += (uint32_t)length;
      anchor = position;
      if (position < startLimit) llz_remember(s, base + position - 2, position - 2);
    }
  }
  uint8_t *token = op++;
  return llz_put_literals(op, token, base + anchor, end - anchor);
}

// MARK: Frames

static inline rewind_line_lz4 *rewind_line_lz4_create(void) {
  return calloc(1, sizeof(rewind_line_lz4));
}

static inline void rewind_line_lz4_free(rewind_line_lz4 *stream) {
  if (!stream) return;
  free(stream->buffer);
  free(stream);
}

static inline int rewind_line_lz4_is_open(const rewind_line_lz4 *stream) { return stream->open; }

static inline size_t llz_block_bound(size_t count) { return count + count / 255 + 16; }

static inline size_t rewind_line_lz4_bound(size_t count) {
  size_t blocks = count / LLZ_BLOCK_MAX + 1;
  // header, each block's size and checksum around its data, end mark and content checksum
  return 7 + blocks * 8 + llz_block_bound(count) + blocks * 16 + 8;
}

// Makes room for `count` more bytes, keeping the window and the bytes the checksum has not
// run over; false when memory is short.
static inline int llz_reserve(rewind_line_lz4 *s, size_t count) {
  uint32_t used = s->length - s->bufferStart;
  if (used + count <= s->capacity) return 1;
  uint32_t keepFrom = s->length > LLZ_WINDOW ? s->length - LLZ_WINDOW : 0;
  if (keepFrom > s->hashed) keepFrom = s->hashed;
  if (keepFrom < s->bufferStart) keepFrom = s->bufferStart;
  size_t keep = s->length - keepFrom;
  if (keep + count <= s->capacity && keepFrom > s->bufferStart) {
    memmove(s->buffer, s->buffer + (keepFrom - s->bufferStart), keep);
  } else {
    size_t capacity = (keep + count) * 2;
    if (capacity < 4 * (size_t)LLZ_BLOCK_MAX) capacity = 4 * (size_t)LLZ_BLOCK_MAX;
    if (capacity > UINT32_MAX) capacity = UINT32_MAX;
    uint8_t *fresh = malloc(capacity);
    if (!fresh) return 0;
    if (keep) memcpy(fresh, s->buffer + (keepFrom - s->bufferStart), keep);
    free(s->buffer);
    s->buffer = fresh;
    s->capacity = (uint32_t)capacity;
  }
  s->bufferStart = keepFrom;
  return 1;
}

static inline size_t rewind_line_lz4_part(
  rewind_line_lz4 *s, const uint8_t *bytes, size_t count, int ends, uint8_t *destination)
{
  uint8_t *op = destination;
  if (!s->open) {
    llz_write32(op, 0x184D2204u);
    // FLG: version 01, linked blocks, block checksums, no content size, content checksum.
    op[4] = 0x54;
    // BD: 64 KiB blocks.
    op[5] = 0x40;
    op[6] = (uint8_t)(rewind_xxh32(op + 4, 2) >> 8);
    op += 7;
    s->open = 1;
    s->bufferStart = 0;
    s->length = 0;
    s->hashed = 0;
    s->lastOffset = 0;
    llz_xxh_start(s->lanes);
  }
  if (count > 0) {
    if ((uint64_t)s->length + count + 2 * (uint64_t)LLZ_BLOCK_MAX > UINT32_MAX
      || !llz_reserve(s, count))
    {
      s->open = 0;
      return SIZE_MAX;
    }
    memcpy(s->buffer + (s->length - s->bufferStart), bytes, count);
    uint32_t start = s->length;
    s->length += (uint32_t)count;
    uint32_t stripes = (s->length - s->hashed) / 16;
    llz_xxh_stripes(s->lanes, s->buffer + (s->hashed - s->bufferStart), stripes);
    s->hashed += stripes * 16;
    while (start < s->length) {
      uint32_t end = s->length - start > LLZ_BLOCK_MAX ? start + LLZ_BLOCK_MAX : s->length;
      uint8_t *block = op + 4;
      size_t size = (size_t)(llz_encode_block(s, start, end, block) - block);
      if (size >= end - start) {
        // Stored as it is, flagged by the size's high bit.
        size = end - start;
        memcpy(block, s->buffer + (start - s->bufferStart), size);
        llz_write32(op, (uint32_t)size | 0x80000000u);
      } else {
        llz_write32(op, (uint32_t)size);
      }
      llz_write32(block + size, rewind_xxh32(block, size));
      op = block + size + 4;
      start = end;
    }
  }
  if (ends) {
    llz_write32(op, 0);
    const uint8_t *rest = s->buffer + (s->hashed - s->bufferStart);
    llz_write32(op + 4, llz_xxh_finish(s->lanes, rest, s->length));
    op += 8;
    s->open = 0;
  }
  return (size_t)(op - destination);
}

#endif
