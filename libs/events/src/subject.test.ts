import { describe, expect, it } from 'vitest';
import { assertFilterSubject, assertPublishSubject, subjectMatches } from './subject.js';

describe('subjectMatches', () => {
  it('matches exact subjects token by token', () => {
    expect(subjectMatches('noted.notes.v1.note.updated', 'noted.notes.v1.note.updated')).toBe(true);
    expect(subjectMatches('noted.notes.v1.note.updated', 'noted.notes.v1.note.created')).toBe(
      false,
    );
    expect(subjectMatches('noted.notes', 'noted.notes.v1')).toBe(false);
  });

  it('lets * stand for exactly one token', () => {
    expect(subjectMatches('noted.notes.v1.note.*', 'noted.notes.v1.note.updated')).toBe(true);
    expect(subjectMatches('noted.*.v1.note.updated', 'noted.notes.v1.note.updated')).toBe(true);
    expect(subjectMatches('noted.notes.v1.note.*', 'noted.notes.v1.note')).toBe(false);
    expect(subjectMatches('noted.notes.v1.*', 'noted.notes.v1.note.updated')).toBe(false);
  });

  it('lets a final > stand for one or more tokens', () => {
    expect(subjectMatches('noted.>', 'noted.notes.v1.note.updated')).toBe(true);
    expect(subjectMatches('noted.notes.>', 'noted.notes.v1')).toBe(true);
    expect(subjectMatches('noted.>', 'noted')).toBe(false);
    expect(subjectMatches('noted.>', 'other.notes')).toBe(false);
  });
});

describe('subject validation', () => {
  it('refuses wildcards and empty tokens in a published subject', () => {
    expect(() => assertPublishSubject('noted.notes.v1.note.updated')).not.toThrow();
    for (const bad of ['noted.*.x', 'noted.>', 'noted..x', '', 'noted.a b']) {
      expect(() => assertPublishSubject(bad)).toThrow(/invalid event subject/);
    }
  });

  it('accepts wildcards in filters only where NATS does', () => {
    expect(() => assertFilterSubject('noted.*.v1.>')).not.toThrow();
    expect(() => assertFilterSubject('noted.>.x')).toThrow(/invalid subject filter/);
    expect(() => assertFilterSubject('noted..x')).toThrow(/invalid subject filter/);
  });
});
