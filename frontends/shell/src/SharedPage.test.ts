import { describe, expect, it } from 'vitest';
import { sharedNoteId } from './SharedPage';

describe('sharedNoteId', () => {
  it('reads the public id of /notes/s/:id', () => {
    expect(sharedNoteId('/notes/s/AbC_-123456789012345678')).toBe('AbC_-123456789012345678');
    expect(sharedNoteId('/notes/s/abc/')).toBe('abc');
  });

  it('ignores every other page', () => {
    for (const path of [
      '/',
      '/notes/123',
      '/notes/s/',
      '/notes/s/a/b',
      '/x/notes/s/abc',
      '/notes/s/a%2Fb',
    ]) {
      expect(sharedNoteId(path)).toBeUndefined();
    }
  });
});
