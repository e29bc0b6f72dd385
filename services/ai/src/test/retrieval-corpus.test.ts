import { describe, expect, it } from 'vitest';
import { tokenize } from '../local/text.js';
import {
  QUESTION_GROUPS,
  corpusNotes,
  corpusQuestions,
  type CorpusNote,
  type QuestionGroup,
} from './retrieval-corpus.js';

// "Content words" are the search terms the ai service itself makes of a text: `tokenize` drops
// stop words and single letters and stems English (Porter), so "costs" and "cost" are one word.
// Chinese has no spaces to split on: tokenize turns each run of CJK characters into overlapping
// character bigrams (a lone character stays itself), and BM25 matches on those, so here a Chinese
// question and a note share a word when they have a two-character sequence in common. That is
// strict on purpose: even a function bigram like 什么 counts.
const termsOf = (text: string): Set<string> => new Set(tokenize(text));

/** Everything a note says, as the test reads it: title, Markdown body and tags. */
const noteTerms = (note: CorpusNote): Set<string> =>
  termsOf([note.title, note.body, note.tags.join(' ')].join('\n'));

const notesById = new Map(corpusNotes.map((note) => [note.id, note]));
const termsById = new Map(corpusNotes.map((note) => [note.id, noteTerms(note)]));

/** Terms of the question that any of its answering notes contains. */
const sharedTerms = (question: string, relevant: string[]): string[] =>
  [...termsOf(question)].filter((term) => relevant.some((id) => termsById.get(id)?.has(term)));

/** Written in Chinese: more Han characters than Latin letters (English terms may be mixed in). */
const isChinese = (text: string): boolean =>
  (text.match(/\p{Script=Han}/gu) ?? []).length > (text.match(/\p{Script=Latin}/gu) ?? []).length;

const noteIsChinese = (id: string): boolean => {
  const note = notesById.get(id);
  return note !== undefined && isChinese(`${note.title}\n${note.body}`);
};

const inGroup = (group: QuestionGroup) =>
  corpusQuestions.filter((question) => question.group === group);

describe('the retrieval corpus', () => {
  it('has enough notes, among them enough in Chinese', () => {
    expect(corpusNotes.length).toBeGreaterThanOrEqual(340);
    // Eleven Chinese notes came first, then two batches of everyday ones (lists, recipes, family,
    // doctors, rent, weekly reports) of at least fifteen each.
    expect(corpusNotes.filter((note) => noteIsChinese(note.id)).length).toBeGreaterThanOrEqual(41);
  });

  it('has enough questions in every group', () => {
    const minimum: Record<QuestionGroup, number> = {
      keyword: 40,
      reworded: 120,
      zh: 20,
      cross: 18,
      typo: 15,
      multi: 16,
      none: 15,
    };
    expect(corpusQuestions.length).toBeGreaterThanOrEqual(230);
    for (const group of QUESTION_GROUPS) {
      expect(inGroup(group).length, group).toBeGreaterThanOrEqual(minimum[group]);
    }
  });

  it('has unique note ids and unique questions', () => {
    const ids = corpusNotes.map((note) => note.id);
    expect(new Set(ids).size).toBe(ids.length);
    const questions = corpusQuestions.map(({ question }) => question.trim().toLowerCase());
    expect(new Set(questions).size).toBe(questions.length);
  });

  it('answers every question but the none ones with notes that exist, each listed once', () => {
    for (const { question, relevant, group } of corpusQuestions) {
      if (group === 'none') expect(relevant, question).toEqual([]);
      else expect(relevant.length, question).toBeGreaterThan(0);
      expect(new Set(relevant).size, question).toBe(relevant.length);
      for (const id of relevant) expect(notesById.has(id), `${question} → ${id}`).toBe(true);
    }
  });

  it('puts a question in multi exactly when several notes answer it', () => {
    for (const { question, relevant, group } of corpusQuestions) {
      expect(group === 'multi', question).toBe(relevant.length > 1);
    }
  });

  it('asks zh questions in Chinese about Chinese notes, and cross ones across languages', () => {
    for (const { question, relevant } of inGroup('zh')) {
      expect(isChinese(question), question).toBe(true);
      for (const id of relevant) expect(noteIsChinese(id), `${question} → ${id}`).toBe(true);
    }
    const directions = new Set<string>();
    for (const { question, relevant } of inGroup('cross')) {
      for (const id of relevant) {
        expect(noteIsChinese(id), `${question} → ${id}`).toBe(!isChinese(question));
      }
      directions.add(isChinese(question) ? 'zh→en' : 'en→zh');
    }
    expect([...directions].sort()).toEqual(['en→zh', 'zh→en']);
  });

  it('asks keyword and typo questions with words of the answering note', () => {
    for (const { question, relevant } of [...inGroup('keyword'), ...inGroup('typo')]) {
      expect(sharedTerms(question, relevant), question).not.toEqual([]);
    }
  });

  it('shares no content word between a reworded question and any note answering it', () => {
    for (const { question, relevant } of inGroup('reworded')) {
      expect(sharedTerms(question, relevant), question).toEqual([]);
    }
  });

  it('shares no content word with the answering notes in at least half of all questions', () => {
    // A none question has no answering note to share a word with: it does not count either way.
    const answered = corpusQuestions.filter(({ group }) => group !== 'none');
    const disjoint = answered.filter(
      ({ question, relevant }) => sharedTerms(question, relevant).length === 0,
    );
    expect(disjoint.length * 2).toBeGreaterThanOrEqual(answered.length);
  });
});
