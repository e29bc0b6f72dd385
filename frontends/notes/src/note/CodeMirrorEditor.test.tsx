import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CodeMirrorEditor from './CodeMirrorEditor';
import type { MarkdownEditorProps } from './editor';

afterEach(cleanup);

const Labelled = (props: Omit<MarkdownEditorProps, 'labelId'>) => (
  <>
    <span id="body-label">Note</span>
    <CodeMirrorEditor labelId="body-label" {...props} />
  </>
);

describe('CodeMirrorEditor', () => {
  it('is a multi-line text box named by the visible label, showing the note', () => {
    const props = { onChange: vi.fn(), onBlur: vi.fn(), findTitles: vi.fn() };
    render(<Labelled value={'# Plan\n- [ ] milk'} {...props} />);

    const box = screen.getByRole('textbox', { name: 'Note' });
    expect(box.getAttribute('aria-multiline')).toBe('true');
    expect(box.textContent).toBe('# Plan- [ ] milk');
  });

  it('takes in a change made outside, such as a task ticked in the preview', () => {
    const props = { onChange: vi.fn(), onBlur: vi.fn(), findTitles: vi.fn() };
    const { rerender } = render(<Labelled value={'- [ ] milk\nmore'} {...props} />);

    rerender(<Labelled value={'- [x] milk\nmore'} {...props} />);

    expect(screen.getByRole('textbox', { name: 'Note' }).textContent).toBe('- [x] milkmore');
  });
});
