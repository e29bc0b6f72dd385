import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { frontMatter, noteMarkdown, rewriteImageUrls } from './note-markdown.js';

const note = {
  id: '3f1c2b7a-0000-4000-8000-000000000001',
  title: 'yes: a title # with marks',
  body: '# Heading\n\nText with [[Other note]] and 中文。\n\n![photo](/api/notes/3f1c2b7a-0000-4000-8000-000000000001/images/AAAAAAAAAAAAAAAAAAAAAA.webp)\n',
  tags: ['on', '设计', 'two words'],
  images: ['/api/notes/3f1c2b7a-0000-4000-8000-000000000001/images/AAAAAAAAAAAAAAAAAAAAAA.webp'],
  createdAt: new Date('2026-03-01T09:30:00Z'),
  updatedAt: new Date('2026-03-05T18:00:00.250Z'),
};
const image = note.images[0] as string;

/** The front matter of a Markdown file, as a YAML 1.1 and a YAML 1.2 reader see it, and the body. */
const split = (markdown: string) => {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(markdown);
  if (!match) throw new Error(`No front matter in ${markdown}`);
  return {
    yaml11: parse(match[1] as string, { version: '1.1' }) as Record<string, unknown>,
    yaml12: parse(match[1] as string) as Record<string, unknown>,
    body: match[2] as string,
  };
};

describe('front matter', () => {
  it('gives every YAML reader the same title, tags, dates and source', () => {
    const { yaml11, yaml12 } = split(`${frontMatter(note, 'https://noted.test/notes/1')}`);
    const expected = {
      title: 'yes: a title # with marks',
      tags: ['on', '设计', 'two words'],
      created: '2026-03-01T09:30:00.000Z',
      updated: '2026-03-05T18:00:00.250Z',
      source: 'https://noted.test/notes/1',
    };
    expect(yaml11).toEqual(expected);
    expect(yaml12).toEqual(expected);
  });

  it('writes an empty tag list as one, and lists images only when there are some', () => {
    const { yaml12 } = split(frontMatter({ ...note, tags: [] }, 's'));
    expect(yaml12.tags).toEqual([]);
    expect(yaml12).not.toHaveProperty('images');
    expect(split(frontMatter(note, 's', ['images/a.webp'])).yaml12.images).toEqual([
      'images/a.webp',
    ]);
  });
});

describe('a note as Markdown', () => {
  it('keeps the body byte for byte after the front matter, images pointed where asked', () => {
    const markdown = noteMarkdown(note, {
      source: 's',
      targets: new Map([[image, 'images/AAAAAAAAAAAAAAAAAAAAAA.webp']]),
    });
    const { yaml12, body } = split(markdown);
    expect(body).toBe(note.body.replace(image, 'images/AAAAAAAAAAAAAAAAAAAAAA.webp'));
    expect(yaml12.images).toEqual(['images/AAAAAAAAAAAAAAAAAAAAAA.webp']);
  });

  it('rewrites an image URL only where it stands alone, never inside a longer address', () => {
    const body = [
      `![a](${image})`,
      `<img src="${image}">`,
      `https://noted.test${image}`,
      `${image}x`,
      `(${image}?size=2)`,
    ].join('\n');
    expect(rewriteImageUrls(body, new Map([[image, 'images/a.webp']])).split('\n')).toEqual([
      '![a](images/a.webp)',
      '<img src="images/a.webp">',
      `https://noted.test${image}`,
      `${image}x`,
      '(images/a.webp?size=2)',
    ]);
  });
});
