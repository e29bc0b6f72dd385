import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { findReferences, isoDate, parseMarkdown, splitFrontMatter } from './markdown.js';

describe('a Markdown file as a note', () => {
  it('takes title, tags, dates and source from front matter, and keeps the body exactly', () => {
    const text = [
      '---',
      'title: Trip to Kyoto',
      'tags: [travel, "Japan 2024"]',
      'created: 2024-03-01T08:00:00.000Z',
      'updated: "2024-03-02T09:30:00+09:00"',
      'source: https://noted.example/notes/42',
      '---',
      '# Trip to Kyoto',
      '',
      'Temples #photos and `#notATag`',
      '',
    ].join('\n');
    const { references: _, ...note } = parseMarkdown('trips/kyoto.md', text);
    expect(note).toEqual({
      sourcePath: 'trips/kyoto.md',
      key: 'trips/kyoto.md',
      title: 'Trip to Kyoto',
      body: '# Trip to Kyoto\n\nTemples #photos and `#notATag`\n',
      tags: ['travel', 'Japan-2024', 'photos'],
      createdAt: '2024-03-01T08:00:00.000Z',
      updatedAt: '2024-03-02T00:30:00.000Z',
      source: 'https://noted.example/notes/42',
      imageRefs: [],
      links: [],
    });
  });

  it('reads tags given as one comma string', () => {
    const note = parseMarkdown('a.md', '---\ntitle: A\ntags: work, side project,#idea\n---\ntext');
    expect(note.tags).toEqual(['work', 'side-project', 'idea']);
  });

  it('without front matter, a leading # heading is the title and leaves the body', () => {
    const note = parseMarkdown('Inbox/note.md', '\n# Shopping *list*\n\n- milk\n- eggs #home\n\n');
    expect(note.title).toBe('Shopping list');
    expect(note.body).toBe('- milk\n- eggs #home');
    expect(note.tags).toEqual(['home']);
  });

  it('names a note by its file when nothing else does, and keeps a later heading in the body', () => {
    const note = parseMarkdown('Inbox/Meeting 3月.md', 'Intro\n\n# Part two\n');
    expect(note.title).toBe('Meeting 3月');
    expect(note.body).toBe('Intro\n\n# Part two');
  });

  it('keeps an empty front matter title for a note with a body, as Noted allows', () => {
    expect(parseMarkdown('x.md', '---\ntitle: ""\n---\njust text').title).toBe('');
    expect(parseMarkdown('x.md', '---\ntitle: ""\n---\n').title).toBe('x');
  });

  it('leaves what is not front matter in the body: a rule, broken YAML, a list', () => {
    expect(splitFrontMatter('---\nnot: [closed\n---\nbody').body).toBe(
      '---\nnot: [closed\n---\nbody',
    );
    expect(splitFrontMatter('---\n- a\n- b\n---\nbody').data).toEqual({});
    expect(splitFrontMatter('---\n---\nbody')).toEqual({ data: {}, body: 'body' });
    expect(parseMarkdown('r.md', '---\n\nText between rules\n\n---\n').body).toBe(
      '---\n\nText between rules\n\n---',
    );
  });

  it('lists the local images it shows and the Markdown files it links to, resolved', () => {
    const body = [
      'See [the plan](Other%20Page.md#goals), [up](../Index.md) and [web](https://example.org/a.md).',
      '![chart](<img/chart one.png>) ![remote](https://example.org/x.png) ![](./img/chart%20one.png)',
      '`[not](code.md)`',
      '```',
      '![not](fenced.png)',
      '```',
      'Also [[Later]] and ![[scan.jpg]].',
    ].join('\n');
    const files: Record<string, string> = { later: 'Later.md', 'scan.jpg': 'assets/scan.jpg' };
    const note = parseMarkdown('notes/Plan.md', body, {
      findByName: (name) => files[name.toLowerCase()],
    });
    expect(note.links).toEqual(['notes/Other Page.md', 'Index.md', 'Later.md']);
    expect(note.imageRefs).toEqual(['notes/img/chart one.png', 'assets/scan.jpg']);
  });

  it('adds the images front matter lists, also those the text does not show', () => {
    const note = parseMarkdown(
      'n/a.md',
      '---\ntitle: A\nimages:\n  - a-images/1.png\n  - https://cdn.example/x.png\n---\ntext ![x](a-images/2.png)',
    );
    expect(note.imageRefs).toEqual(['n/a-images/2.png', 'n/a-images/1.png']);
  });

  it('gives the offsets of each reference so it can be rewritten in place', () => {
    const body = 'a [b](c.md) d';
    const [reference] = findReferences(body, 'x.md');
    expect(reference).toMatchObject({ kind: 'link', path: 'c.md', text: 'b' });
    expect(body.slice(reference!.start, reference!.end)).toBe('[b](c.md)');
  });

  it('reads dates as ISO 8601 only, in UTC', () => {
    expect(isoDate('2024-05-06')).toBe('2024-05-06T00:00:00.000Z');
    expect(isoDate('2024-05-06 07:08')).toBe('2024-05-06T07:08:00.000Z');
    expect(isoDate(new Date('2024-05-06T07:08:09Z'))).toBe('2024-05-06T07:08:09.000Z');
    expect(isoDate('May 6, 2024')).toBeUndefined();
    expect(isoDate('2024-13-45')).toBeUndefined();
  });
});

/** A note as Noted's export writes it (services/export: front matter, then the body as stored). */
const exported = (note: {
  title: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  body: string;
  id: string;
}) =>
  `---\n${stringify(
    {
      title: note.title,
      tags: note.tags,
      created: note.createdAt,
      updated: note.updatedAt,
      source: `https://noted.example/notes/${note.id}`,
    },
    { compat: 'yaml-1.1', lineWidth: 0 },
  )}---\n${note.body}`;

describe('Markdown export then import', () => {
  const notes = [
    {
      id: 'a1',
      title: 'Weekly review',
      tags: ['work', 'review'],
      createdAt: '2024-01-05T10:00:00.000Z',
      updatedAt: '2024-01-06T11:30:00.000Z',
      body: '# Done\n\n- [x] ship #work\n- [ ] plan\n\nSee [[Ideas]] and #review\n',
    },
    {
      id: 'b2',
      title: 'yes',
      tags: ['on'],
      createdAt: '2023-12-31T23:59:59.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      body: '周末去爬山 #on\n\n```js\nconst tag = "#not";\n```',
    },
    {
      id: 'c3',
      title: 'Ideas: a list — with “quotes” & colons',
      tags: [],
      createdAt: '2024-02-29T12:00:00.000Z',
      updatedAt: '2024-02-29T12:00:00.000Z',
      body: '',
    },
  ];

  it('gives back the same titles, bodies, tags, dates and links', () => {
    for (const note of notes) {
      const imported = parseMarkdown(`${note.title.slice(0, 8)}.md`, exported(note));
      expect(imported).toMatchObject({
        title: note.title,
        body: note.body,
        tags: note.tags,
        createdAt: note.createdAt,
        updatedAt: note.updatedAt,
        source: `https://noted.example/notes/${note.id}`,
      });
    }
  });
});
