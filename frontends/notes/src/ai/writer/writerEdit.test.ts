import { describe, expect, it } from 'vitest';
import { applyAnswer, sourceText, targetFor } from './writerEdit';

describe('targetFor and sourceText', () => {
  const text = 'One. Two. Three.';

  it('works on the selection, or on the whole note when nothing is selected', () => {
    const selected = targetFor('rewrite', text, { from: 5, to: 9 });
    expect(sourceText(text, selected)).toBe('Two.');
    const whole = targetFor('shorten', text, { from: 3, to: 3 });
    expect(whole).toMatchObject({ kind: 'replace', wholeNote: true });
    expect(sourceText(text, whole)).toBe(text);
  });

  it('continues from the cursor with the text before it, and answers questions at the end', () => {
    const continued = targetFor('continue', text, { from: 9, to: 9 });
    expect(sourceText(text, continued)).toBe('One. Two.');
    expect(targetFor('ask', text, { from: 5, to: 9 })).toEqual({ kind: 'append' });
  });
});

describe('applyAnswer', () => {
  it('replaces the selection, keeping the spaces and line breaks around it', () => {
    const text = 'Intro\n  old words \nEnd';
    const target = targetFor('rewrite', text, { from: 6, to: 17 });
    expect(applyAnswer(text, target, '\nnew words\n')).toBe('Intro\n  new words \nEnd');
  });

  it('finds the selected text again when the note was edited before it', () => {
    const target = targetFor('rewrite', 'A. B. C.', { from: 3, to: 5 });
    expect(applyAnswer('Added. A. B. C.', target, 'Bee.')).toBe('Added. A. Bee. C.');
  });

  it('refuses when the selected text is gone', () => {
    const target = targetFor('rewrite', 'A. B. C.', { from: 3, to: 5 });
    expect(applyAnswer('A. C.', target, 'Bee.')).toBeUndefined();
  });

  it('inserts a continuation at the cursor, with a space between words', () => {
    const target = targetFor('continue', 'Start end', { from: 5, to: 5 });
    expect(applyAnswer('Start end', target, 'middle')).toBe('Start middle end');
    const atLineStart = targetFor('continue', 'Start\n', { from: 6, to: 6 });
    expect(applyAnswer('Start\n', atLineStart, 'Next line')).toBe('Start\nNext line');
  });

  it('appends an answer after a blank line', () => {
    expect(applyAnswer('Body\n', { kind: 'append' }, ' Answer ')).toBe('Body\n\nAnswer');
    expect(applyAnswer('', { kind: 'append' }, 'Answer')).toBe('Answer');
  });
});
