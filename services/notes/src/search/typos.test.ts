import { describe, expect, it } from 'vitest';
import {
  afterPrefix,
  allowedTypos,
  lexemeQuery,
  nearWords,
  typoDistance,
  type NearWords,
} from './typos.js';

/** The plain dynamic programme, unbounded, to check the bounded one against. */
const osa = (a: string, b: string) => {
  const s = Array.from(a);
  const t = Array.from(b);
  const d = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? 0;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      let cell = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (s[i - 1] === t[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        cell = Math.min(cell, at(i - 2, j - 2) + 1);
      }
      (d[i] as number[])[j] = cell;
    }
  }
  return at(s.length, t.length);
};

/** What the vocabulary query asks of a word (see vocabularyQuery), in JS. */
const passes = (near: NearWords, word: string) => {
  const letters = Array.from(word);
  if (letters.length < near.minLetters || letters.length > near.maxLetters) return false;
  const keys = {
    word,
    reversed: [...letters].reverse().join(''),
    fromFifth: letters.slice(4).join(''),
  };
  return near.ranges.some(
    ({ key, begins, middle }) =>
      keys[key].startsWith(begins) &&
      (!middle ||
        letters.slice(middle.at - 1, middle.at - 1 + Array.from(middle.letters).length).join('') ===
          middle.letters),
  );
};

/** A deterministic random source, so a failure can be replayed. */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('typo tolerance', () => {
  it('allows no typo under 5 letters, 1 from 5, 2 from 9, and none in numbers or Chinese', () => {
    expect(allowedTypos('kiwi')).toBe(0);
    expect(allowedTypos('apple')).toBe(1);
    expect(allowedTypos('elephant')).toBe(1);
    expect(allowedTypos('chocolate')).toBe(2);
    expect(allowedTypos('naïveté')).toBe(1);
    expect(allowedTypos('20261125')).toBe(0);
    expect(allowedTypos('会议记录很长的句子')).toBe(0);
    expect(allowedTypos('x'.repeat(65))).toBe(0);
  });

  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit', () => {
    expect(typoDistance('elephnat', 'elephant', 2)).toBe(1);
    expect(typoDistance('recieve', 'receive', 2)).toBe(1);
    expect(typoDistance('meetng', 'meeting', 2)).toBe(1);
    expect(typoDistance('sevan', 'seven', 2)).toBe(1);
    expect(typoDistance('elpehnat', 'elephant', 2)).toBe(2);
    expect(typoDistance('same', 'same', 0)).toBe(0);
    // Optimal string alignment: a swapped pair is not edited again ("ca" -> "abc" is 3).
    expect(typoDistance('ca', 'abc', 5)).toBe(3);
    // Letters are code points: an emoji is one letter.
    expect(typoDistance('a😀b', 'ab', 2)).toBe(1);
  });

  it('stops at the bound, with the same answer as the full computation within it', () => {
    const next = random(7);
    const alphabet = 'abcde';
    const word = () =>
      Array.from({ length: 1 + Math.floor(next() * 9) }, () =>
        alphabet.charAt(Math.floor(next() * alphabet.length)),
      ).join('');
    for (let n = 0; n < 3000; n++) {
      const [a, b] = [word(), word()];
      const exact = osa(a, b);
      for (const max of [0, 1, 2])
        expect(typoDistance(a, b, max), `${a} ${b}`).toBe(Math.min(exact, max + 1));
    }
  });

  it('never leaves out a word within the typos when choosing candidates', () => {
    const next = random(42);
    /** Words of a few letters repeat letters, as words do; of all 26, chance matches are rare. */
    for (const alphabet of ['abcdeé', 'abcdefghijklmnopqrstuvwxyz']) {
      const pick = () => alphabet.charAt(Math.floor(next() * alphabet.length));
      /** One random edit of any kind, anywhere, or (half the time) at either end. */
      const edit = (word: string) => {
        const letters = Array.from(word);
        const anywhere = Math.floor(next() * (letters.length + 1));
        const end = next() < 0.5 ? Math.floor(next() * 3) : letters.length - Math.floor(next() * 3);
        const at = Math.max(0, Math.min(next() < 0.5 ? anywhere : end, letters.length));
        const kind = Math.floor(next() * 4);
        if (kind === 0) letters.splice(at, 0, pick());
        else if (kind === 1) letters.splice(Math.min(at, letters.length - 1), 1);
        else if (kind === 2) letters.splice(Math.min(at, letters.length - 1), 1, pick());
        else if (at + 1 < letters.length) {
          const [first, second] = [letters[at] ?? '', letters[at + 1] ?? ''];
          letters.splice(at, 2, second, first);
        }
        return letters.join('');
      };
      let checked = 0;
      let byMiddle = 0;
      for (let n = 0; n < 20000; n++) {
        const length = 5 + Math.floor(next() * 12);
        const word = Array.from({ length }, pick).join('');
        const typos = allowedTypos(word);
        if (typos === 0) continue;
        let other = word;
        for (let e = 0; e < 1 + Math.floor(next() * typos); e++) other = edit(other);
        if (typoDistance(word, other, typos) > typos) continue;
        checked += 1;
        const near = nearWords(word, typos);
        expect(passes(near, other), `${word} ~ ${other}`).toBe(true);
        const ends = near.ranges.filter((range) => range.key !== 'fromFifth');
        if (!passes({ ...near, ranges: ends }, other)) byMiddle += 1;
      }
      expect(checked).toBeGreaterThan(10000);
      // Edits at both ends of long words, found by their middle alone.
      expect(byMiddle).toBeGreaterThan(100);
    }
  });

  it('asks for a beginning, an end or (for two typos) letters from the fifth on', () => {
    expect(nearWords('apple', 1)).toEqual({
      minLetters: 4,
      maxLetters: 6,
      ranges: [
        { key: 'word', begins: 'ap' },
        { key: 'reversed', begins: 'el' },
      ],
    });
    expect(nearWords('elephnat', 1).ranges.map((range) => range.begins)).toEqual(['ele', 'tanh']);
    expect(nearWords('chocolate', 2)).toEqual({
      minLetters: 7,
      maxLetters: 11,
      ranges: [
        { key: 'word', begins: 'ch' },
        { key: 'reversed', begins: 'et' },
        { key: 'fromFifth', begins: 'l', middle: { letters: 'col', at: 3 } },
        { key: 'fromFifth', begins: 'ol', middle: { letters: 'col', at: 4 } },
        { key: 'fromFifth', begins: 'col', middle: { letters: 'col', at: 5 } },
      ],
    });
  });

  it('quotes any word as a tsquery operand, and bounds the words that begin with a prefix', () => {
    expect(lexemeQuery("it's\\")).toBe("'it''s\\\\'");
    expect(afterPrefix('elephn')).toBe('elepho');
    expect(afterPrefix('caf\u{D7FF}')).toBe('caf\u{E000}');
    expect(afterPrefix('\u{10FFFF}')).toBeUndefined();
    expect(afterPrefix('')).toBeUndefined();
  });
});
