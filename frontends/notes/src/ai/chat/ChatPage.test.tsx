import { AppError } from '@noted/api';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  address,
  chineseNotesSets,
  createNotesTestI18n,
  fakeApi,
  makeChat,
  makeMessage,
  makeNote,
  localAiSettings,
  renderNotes,
} from '../../testing';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const NEW_CHAT_ID = '3b2f6a0e-8c1d-4e5f-9a7b-0c1d2e3f4a5b';

const conversations = () => screen.getByRole('navigation', { name: 'Conversations' });

/** The chat page at `path`, once its code and the conversation list are there. */
const openChat = async (fake: ReturnType<typeof fakeApi>, path = '/chat') => {
  const view = renderNotes(fake.api, path);
  await screen.findByRole('heading', { name: 'Ask your notes' }, { timeout: 5000 });
  await vi.waitFor(() => expect(fake.knowledge.chats).toHaveBeenCalled());
  return view;
};

const ask = (question: string) => {
  fireEvent.change(screen.getByLabelText('Your question'), { target: { value: question } });
  fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
};

describe('the knowledge chat', () => {
  it('streams the answer of a new conversation, which moves to its own address as it goes', async () => {
    const dentist = makeNote({ title: 'Dentist', note: 'Tuesday at 9' });
    const fake = fakeApi([dentist]);
    await openChat(fake);
    expect(await within(conversations()).findByText('No conversations yet.')).toBeTruthy();

    ask('When is the dentist?');

    expect(fake.knowledge.answer).toHaveBeenCalledWith(
      { question: 'When is the dentist?' },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    expect(screen.getByText('When is the dentist?')).toBeTruthy();
    const stream = fake.lastStream();
    stream.send({ type: 'chat', chatId: NEW_CHAT_ID });
    expect(address()).toBe(`/chat/${NEW_CHAT_ID}`);
    stream.send({ type: 'citations', notes: [{ id: dentist.id, title: 'Dentist' }] });
    stream.tokens('On Tuesday');
    stream.tokens(' at 9.');

    // Still the same conversation: nothing was loaded again, the answer kept streaming.
    expect(screen.getByText('On Tuesday at 9.')).toBeTruthy();
    expect(fake.knowledge.chat).not.toHaveBeenCalled();
    const answerId = '6c1d2e3f-4a5b-4c6d-8e7f-8a9b0c1d2e3f';
    fake.addChat(
      makeChat({
        id: NEW_CHAT_ID,
        title: 'When is the dentist?',
        updatedAt: '2026-02-01T10:00:00.000Z',
      }),
    );
    await stream.finish({ method: 'extractive', messageId: answerId });

    expect(
      screen.getByText(
        'No language model here: the passages of your notes that match best, best first',
      ),
    ).toBeTruthy();
    const listed = await within(conversations()).findByRole('link', {
      name: /When is the dentist\?/,
    });
    expect(listed.getAttribute('aria-current')).toBe('page');
    expect(fake.knowledge.chat).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('link', { name: 'Dentist' }));
    expect(address()).toBe(`/notes/${dentist.id}`);
  });

  it('offers questions to start a new conversation with, each put in the box to ask', async () => {
    const settings = localAiSettings();
    const fake = fakeApi([], {
      aiSettings: { features: { ...settings.features, chat: 'model' } },
    });
    await openChat(fake);
    const suggestions = await screen.findByRole('list', { name: 'Try asking' });
    expect(
      screen.getByText(
        'Ask anything about what you wrote. Each answer names the notes it comes from.',
      ),
    ).toBeTruthy();

    fireEvent.click(within(suggestions).getByRole('button', { name: 'What is still left to do?' }));

    const box = screen.getByLabelText('Your question') as HTMLTextAreaElement;
    expect(box.value).toBe('What is still left to do?');
    expect(document.activeElement).toBe(box);
    expect(fake.knowledge.answer).not.toHaveBeenCalled();
  });

  it('without a language model says answers are the passages that match best, and suggests questions about the most used tags', async () => {
    const fake = fakeApi([
      makeNote({ title: 'Brakes', tags: ['car'] }),
      makeNote({ title: 'Tyres', tags: ['car', 'costs'] }),
      makeNote({ title: 'Rent', tags: ['costs', 'home'] }),
      makeNote({ title: 'Oil', tags: ['car'] }),
      makeNote({ title: 'Plants', tags: ['garden'] }),
    ]);
    await openChat(fake);
    expect(
      screen.getByText(
        /^There is no language model on this server: each answer shows the passages/,
      ),
    ).toBeTruthy();
    const suggestions = await screen.findByRole('list', { name: 'Try asking' });
    const offered = within(suggestions)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(offered.slice(0, 2)).toEqual([
      'What do my notes say about car?',
      'What do my notes say about costs?',
    ]);
    expect(offered).toHaveLength(3);
    expect(screen.queryByText('What is still left to do?')).toBeNull();
  });

  it('opens a past conversation with its cited answers and continues it', async () => {
    const note = makeNote({ title: 'Boiler manual' });
    const chat = makeChat({
      title: 'Boiler pressure',
      messages: [
        makeMessage({ role: 'user', content: 'What pressure should the boiler have?' }),
        makeMessage({
          content: 'Between 1 and 1.5 bar.',
          citations: [{ id: note.id, title: 'Boiler manual' }],
          method: 'model',
        }),
      ],
    });
    const older = makeChat({ title: 'Older talk', updatedAt: '2025-06-01T00:00:00.000Z' });
    const fake = fakeApi([note], { chats: [older, chat] });
    await openChat(fake, `/chat/${chat.id}`);

    expect(await screen.findByText('Between 1 and 1.5 bar.')).toBeTruthy();
    expect(fake.knowledge.chat).toHaveBeenCalledWith(chat.id);
    expect(screen.getByRole('link', { name: 'Boiler manual' }).getAttribute('href')).toBe(
      `/notes/${note.id}`,
    );
    expect(screen.getByText('Written by a language model')).toBeTruthy();
    const titles = within(conversations())
      .getAllByRole('link')
      .map((link) => link.querySelector('.ai-chat-link-title')?.textContent)
      .filter(Boolean);
    expect(titles).toEqual(['Boiler pressure', 'Older talk']);

    ask('And when cold?');

    expect(fake.knowledge.answer).toHaveBeenCalledWith(
      { question: 'And when cold?', chatId: chat.id },
      expect.anything(),
    );
    fake.lastStream().tokens('About 1 bar.');
    await fake.lastStream().finish({ messageId: makeMessage().id });
    expect(screen.getByText('About 1 bar.')).toBeTruthy();
    expect(address()).toBe(`/chat/${chat.id}`);
  });

  it('stops an answer on Stop, closing the request', async () => {
    const fake = fakeApi();
    await openChat(fake);
    ask('Summarise my week');
    const stream = fake.lastStream();
    stream.tokens('You wrote');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    });

    expect(stream.signal?.aborted).toBe(true);
    expect(await screen.findByText('Stopped before the answer was finished.')).toBeTruthy();
    expect(screen.getByText('You wrote')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask' })).toBeTruthy();
  });

  it('deletes a conversation only after confirming, and leaves it when it was open', async () => {
    const keep = makeChat({ title: 'Keep me' });
    const drop = makeChat({ title: 'Drop me', messages: [makeMessage({ content: 'Old answer' })] });
    const fake = fakeApi([], { chats: [keep, drop] });
    await openChat(fake, `/chat/${drop.id}`);
    await screen.findByText('Old answer');

    fireEvent.click(
      within(conversations()).getByRole('button', { name: 'Delete the conversation Drop me' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this conversation?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fake.knowledge.removeChat).not.toHaveBeenCalled();

    fireEvent.click(
      within(conversations()).getByRole('button', { name: 'Delete the conversation Drop me' }),
    );
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Delete conversation',
      }),
    );

    await vi.waitFor(() =>
      expect(within(conversations()).queryByRole('link', { name: /Drop me/ })).toBeNull(),
    );
    expect(fake.knowledge.removeChat).toHaveBeenCalledWith(drop.id);
    expect(within(conversations()).getByRole('link', { name: /Keep me/ })).toBeTruthy();
    expect(address()).toBe('/chat');
    expect(screen.queryByText('Old answer')).toBeNull();
  });

  it('saves an answer as a note with the generated title, body and tags, and opens it', async () => {
    const source = makeNote({ title: 'Recipe' });
    const answer = makeMessage({
      content: 'Use two eggs and a cup of flour.',
      citations: [{ id: source.id, title: 'Recipe' }],
      method: 'model',
    });
    const chat = makeChat({ title: 'Pancakes', messages: [answer] });
    const fake = fakeApi([source], { chats: [chat] });
    await openChat(fake, `/chat/${chat.id}`);

    fireEvent.click(await screen.findByRole('button', { name: 'Save as note' }));

    await vi.waitFor(() => expect(address()).toMatch(/^\/notes\//));
    expect(fake.knowledge.generate).toHaveBeenCalledWith({ chatId: chat.id, messageId: answer.id });
    expect(fake.create).toHaveBeenCalledWith({
      title: 'Pancakes',
      note: 'Use two eggs and a cup of flour.',
      tags: ['knowledge'],
    });
    const created = await fake.create.mock.results[0]?.value;
    expect(address()).toBe(`/notes/${created.id}`);
    expect(((await screen.findByLabelText('Title')) as HTMLInputElement).value).toBe('Pancakes');
  });

  it('stays put when the month’s notes are used up (the shell has said so already)', async () => {
    const chat = makeChat({ messages: [makeMessage({ content: 'An answer' })] });
    const fake = fakeApi([], { chats: [chat] });
    fake.create.mockRejectedValueOnce(
      new AppError('NOTES_LEFT_NOT_ENOUGH', 'Notes left not enough this month'),
    );
    const { shell } = await openChat(fake, `/chat/${chat.id}`);

    fireEvent.click(await screen.findByRole('button', { name: 'Save as note' }));

    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save as note' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );
    expect(address()).toBe(`/chat/${chat.id}`);
    expect(shell.toast).not.toHaveBeenCalled();
    expect(screen.getByText('An answer')).toBeTruthy();
  });

  it('links to the AI settings from its heading', async () => {
    const fake = fakeApi();
    await openChat(fake);
    const head = screen.getByRole('heading', { name: 'Ask your notes' }).closest('header');
    fireEvent.click(within(head as HTMLElement).getByRole('link', { name: 'AI settings' }));
    expect(address()).toBe('/settings/ai');
  });
});

describe('the knowledge chat in Chinese', () => {
  it('shows the page, its conversations and a cited answer in Chinese', async () => {
    const note = makeNote({ title: '牙医' });
    const chat = makeChat({
      title: '看牙时间',
      messages: [
        makeMessage({ role: 'user', content: '什么时候看牙？' }),
        makeMessage({
          content: '周二九点。',
          citations: [{ id: note.id, title: '牙医' }],
          method: 'extractive',
        }),
      ],
    });
    const fake = fakeApi([note], { chats: [chat] });
    renderNotes(fake.api, `/chat/${chat.id}`, createNotesTestI18n(chineseNotesSets));

    expect(
      await screen.findByRole('heading', { name: '问问你的笔记' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(await screen.findByText('周二九点。')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '对话' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '新对话' })).toBeTruthy();
    expect(screen.getByText('出自你的笔记：')).toBeTruthy();
    expect(screen.getByRole('link', { name: '牙医' })).toBeTruthy();
    expect(screen.getByText('此服务器没有语言模型：按匹配程度排列的笔记片段')).toBeTruthy();
    expect(screen.getByRole('button', { name: '存为笔记' })).toBeTruthy();
    expect(screen.getByLabelText('你的问题')).toBeTruthy();
    expect(screen.getByRole('button', { name: '提问' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: '删除对话 看牙时间' })).toBeTruthy();
  });
});
