import type { ApiClient, FeedbackKind } from '@noted/api';
import { MemoryRouter } from '@noted/router';
import { createTestShell } from '@noted/ui/testing';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FeedbackPage, { screenshotMaxBytes } from './FeedbackPage';

afterEach(cleanup);

const sent = (id: string, kind: FeedbackKind, message: string, hasScreenshot = false) => ({
  id,
  kind,
  message,
  email: 'ada@example.com',
  userId: 'u1',
  page: null,
  hasScreenshot,
  createdAt: '2026-11-20T10:00:00.000Z',
});

const setUp = ({ signedIn }: { signedIn: boolean }) => {
  const shell = createTestShell();
  const account = { ...shell.account.get(), phase: signedIn ? 'ready' : 'signedOut' } as const;
  shell.account.get = () => account;
  const kept = [sent('f0', 'idea', 'Older idea')];
  const send = vi.fn(async (body: { kind: FeedbackKind; message: string }) => {
    kept.unshift(sent(`f${kept.length}`, body.kind, body.message));
    return { id: 'f1', createdAt: '2026-11-29T00:00:00.000Z' };
  });
  const mine = vi.fn(async ({ cursor }: { cursor?: string }) =>
    cursor === 'older'
      ? { items: [sent('f-old', 'praise', 'Oldest praise', true)], nextCursor: null }
      : { items: [...kept], nextCursor: 'older' },
  );
  const api = { feedback: { send, mine } } as unknown as ApiClient;
  render(
    <MemoryRouter>
      <FeedbackPage api={api} shell={shell} />
    </MemoryRouter>,
  );
  return { send, mine };
};

describe('the feedback page', () => {
  it('asks for a message before sending anything', () => {
    const { send } = setUp({ signedIn: false });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(screen.getByRole('alert').textContent).toBe('Write a message first.');
    expect(send).not.toHaveBeenCalled();
  });

  it("sends a signed-out visitor's problem with the address to answer, then thanks them", async () => {
    const { send } = setUp({ signedIn: false });
    fireEvent.click(screen.getByRole('radio', { name: /A problem/ }));
    fireEvent.change(screen.getByLabelText('Your message'), {
      target: { value: '  Export hangs  ' },
    });
    fireEvent.change(screen.getByLabelText('Your email (optional)'), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeTruthy();
    expect(send).toHaveBeenCalledWith({
      kind: 'problem',
      message: 'Export hangs',
      email: 'ada@example.com',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send more feedback' }));
    expect((screen.getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('');
  });

  it('asks no address of someone signed in', () => {
    setUp({ signedIn: true });
    expect(screen.queryByLabelText('Your email (optional)')).toBeNull();
  });

  it('shows someone signed in what they sent, newest first, older on request, and the new one once sent', async () => {
    const { mine } = setUp({ signedIn: true });
    const list = await screen.findByRole('region', { name: 'What you sent' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Older idea')]);
    fireEvent.click(within(list).getByRole('button', { name: 'Show older' }));
    await within(list).findByText('Oldest praise');
    expect(within(list).getByText('With a screenshot')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Your message'), { target: { value: 'Dark PDFs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    await screen.findByRole('heading', { name: 'Thank you' });
    await within(list).findByText('Dark PDFs');
    expect(mine).toHaveBeenCalledTimes(3);
  });

  it('shows a signed-out visitor no list', () => {
    const { mine } = setUp({ signedIn: false });
    expect(mine).not.toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'What you sent' })).toBeNull();
  });

  it('refuses a screenshot that is too large or not an image, before sending', () => {
    setUp({ signedIn: true });
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    const big = new File([new Uint8Array(screenshotMaxBytes + 1)], 'big.png', {
      type: 'image/png',
    });
    fireEvent.change(input, { target: { files: [big] } });
    expect(screen.getByRole('alert').textContent).toBe('The screenshot is larger than 2 MB.');
    const gif = new File([new Uint8Array(10)], 'a.gif', { type: 'image/gif' });
    fireEvent.change(input, { target: { files: [gif] } });
    expect(screen.getByRole('alert').textContent).toBe('Choose a PNG, JPEG or WebP image.');
  });

  it('says why the server refused it and keeps what was written', async () => {
    const shell = createTestShell();
    const send = vi.fn(async () => {
      throw Object.assign(
        new Error('Too many requests from this address: try again in 60 seconds'),
        {
          code: 'RATE_LIMITED',
        },
      );
    });
    render(
      <MemoryRouter>
        <FeedbackPage
          api={
            {
              feedback: { send, mine: async () => ({ items: [], nextCursor: null }) },
            } as unknown as ApiClient
          }
          shell={shell}
        />
      </MemoryRouter>,
    );
    fireEvent.change(screen.getByLabelText('Your message'), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect((await screen.findByRole('alert')).textContent).toContain('try again in 60 seconds');
    expect((screen.getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('Hello');
  });
});
