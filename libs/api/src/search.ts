import * as z from 'zod';
import { Note, page } from './notes.js';

export const SearchHighlights = z
  .object({
    title: z.string().optional().meta({
      description: 'The title, HTML-escaped, with each matching word in <mark></mark>',
    }),
    note: z.string().optional().meta({
      description: 'Short fragments of the body around the matches, HTML-escaped, with <mark>',
    }),
  })
  .meta({
    id: 'SearchHighlights',
    description:
      'Present on notes found by a full-text search; a part is left out when no word of it ' +
      'matched (tag-only matches carry none; a typo-tolerant match marks the word it stood for).',
  });
export type SearchHighlights = z.infer<typeof SearchHighlights>;

export const SearchHit = Note.extend({ highlights: SearchHighlights.optional() }).meta({
  id: 'SearchHit',
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchPage = page(SearchHit).meta({
  id: 'SearchPage',
  description:
    'Without `search`, notes newest first. With it, the best matches first (title above tags ' +
    'above body, then newest); when no word matches, the notes with the most alike words of ' +
    'the newest 2,000 notes instead (typos).',
});
export type SearchPage = z.infer<typeof SearchPage>;
