import { describe, expect, it } from 'vitest';
import { NoteListQuery } from './notes.js';
import { openApiDocument } from './openapi.js';

describe('search in the list query', () => {
  it('trims the search, and treats an empty or blank one as none', () => {
    expect(NoteListQuery.parse({ search: '  team meet ' }).search).toBe('team meet');
    expect(NoteListQuery.parse({ search: ' \t ' }).search).toBeUndefined();
    expect(NoteListQuery.parse({}).search).toBeUndefined();
    expect(() => NoteListQuery.parse({ search: 'x'.repeat(201) })).toThrow(/at most 200/);
  });

  it('is documented: the search parameter, and highlights on the items of the page', () => {
    const document = openApiDocument('http://localhost');
    const list = document.paths?.['/api/notes']?.get;
    const search = list?.parameters?.find((p) => 'name' in p && p.name === 'search');
    expect(search).toMatchObject({ in: 'query', schema: { type: 'string', maxLength: 200 } });
    expect(search).not.toMatchObject({ required: true });
    const hit = document.components?.schemas?.SearchHit;
    expect(hit).toMatchObject({ properties: { highlights: { $ref: expect.any(String) } } });
    expect(hit).toMatchObject({ required: expect.not.arrayContaining(['highlights']) });
  });
});
