import {
  AppError,
  entitlementNames,
  hasFeature,
  routes,
  type Chat,
  type ChatList,
  type FeedbackItem,
  type FeedbackList,
  type User,
} from '@noted/api';
import { sniffImage, type Identity } from '@noted/kit';
import { exportEverything, type ExportContext } from './exports.js';
import { safeBaseName, uniqueNames } from './files.js';
import type { NoteToExport } from './notes-client.js';
import { createUserCaller, type UserCallerOptions } from './notes-port.js';
import type { ZipWriter } from './zip.js';

export interface AccountPortOptions extends UserCallerOptions {
  usersUrl: string;
  notesUrl: string;
  aiUrl: string;
  billingUrl: string;
}

/** Conversations read per request while the archive is written. */
const CHATS_PAGE = 100;
/** Feedback read per request (the most the route gives). */
const FEEDBACK_PAGE = 100;

/**
 * What the other services hold about one user, read through their own routes as that user
 * (`createUserCaller`): the account, the month's usage, the plan, the AI settings, the chats,
 * the feedback they sent and the files notes were captured from.
 */
export const createAccountPort = (options: AccountPortOptions) => {
  const { call, download } = createUserCaller(options);
  return (identity: Identity) => ({
    profile: () => call<User>(identity, options.usersUrl, routes.userMe),
    usage: () => call<unknown>(identity, options.usersUrl, routes.userUsage),
    plan: () => call<unknown>(identity, options.billingUrl, routes.billingStatus),
    aiSettings: () => call<unknown>(identity, options.aiUrl, routes.aiSettingsGet),
    chats: (page: number) =>
      call<ChatList>(identity, options.aiUrl, routes.knowledgeChatList, {
        query: `?page=${page}&limit=${CHATS_PAGE}`,
      }),
    chat: (chatId: string) =>
      call<Chat>(identity, options.aiUrl, routes.knowledgeChatGet, { params: { chatId } }),
    feedback: (cursor: string | null) =>
      call<FeedbackList>(identity, options.usersUrl, routes.feedbackMine, {
        query: `?limit=${FEEDBACK_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      }),
    feedbackScreenshot: (feedbackId: string) =>
      download(identity, options.usersUrl, routes.feedbackMineScreenshot, {
        params: { id: feedbackId },
      }),
    file: (noteId: string, name: string) =>
      download(identity, options.notesUrl, routes.noteFileGet, { params: { id: noteId, name } }),
  });
};

export type AccountPort = ReturnType<typeof createAccountPort>;

/** The export formats a plan may leave out, with the words for the refusal. */
const planFormats = {
  pdf: { feature: entitlementNames.exportPdf, name: 'PDF' },
  png: { feature: entitlementNames.exportImage, name: 'Image' },
} as const;

/**
 * Refuses a PDF or PNG export to a user whose plan does not include it (the `export_pdf` and
 * `export_image` entitlements; the free plan's are `FREE_EXPORT_PDF` and `FREE_EXPORT_IMAGE`).
 */
export const requireExportFormat = async (
  account: ReturnType<AccountPort>,
  format: keyof typeof planFormats,
) => {
  const { feature, name } = planFormats[format];
  const { entitlements } = await account.profile();
  if (!hasFeature(entitlements, feature)) {
    throw new AppError('PLAN_REQUIRED', `${name} export is not part of your plan`, { feature });
  }
};

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const README = `Everything Noted holds about you, as of the date in this archive's name.

account/profile.json     your account: id, email, name, when it was made, your plan's entitlements
account/plan.json        your plan and subscription (payments are Stripe's; no card is held here)
account/usage.json       this month's usage against your plan's limits
account/ai-settings.json your AI settings (tags kept from AI, models)
account/notion.json      your Notion connection, if any (its token is not included)
account/feedback.json    the feedback you sent signed in; feedback/ holds its screenshots
chats/                   your knowledge-chat conversations, one JSON file each, with their citations
notes/                   your notes as Markdown with YAML front matter, images/ beside them,
                         and manifest.json listing every note (the format "Export all notes" gives;
                         Noted imports it back)
files/                   the files notes were captured from (recordings, audio files, PDFs)
`;

/** Every feedback the user sent signed in, newest first (a few pages at most). */
const allFeedback = async (account: ReturnType<AccountPort>): Promise<FeedbackItem[]> => {
  const items: FeedbackItem[] = [];
  let cursor: string | null = null;
  do {
    const page: FeedbackList = await account.feedback(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
};

/**
 * Writes the archive of everything Noted holds about the user. The small parts (account, plan,
 * usage, settings, the feedback list, the first page of chats) are read before anything is
 * written, so a service that does not answer is a plain error; then the notes stream as "export
 * everything" writes them, under `notes/`, and the captured files, one at a time. Answers how
 * many notes were written.
 */
export const writeAccountData = async (
  ctx: ExportContext,
  account: ReturnType<AccountPort>,
  parts: { notion: unknown },
) => {
  const [profile, plan, usage, aiSettings, feedback, firstChats] = await Promise.all([
    account.profile(),
    account.plan(),
    account.usage(),
    account.aiSettings(),
    allFeedback(account),
    account.chats(1),
  ]);
  return async (
    userId: string,
    pages: AsyncIterator<{ notes: NoteToExport[] }>,
    zip: ZipWriter,
  ): Promise<number> => {
    await zip.add('README.txt', README);
    await zip.add('account/profile.json', json(profile));
    await zip.add('account/plan.json', json(plan));
    await zip.add('account/usage.json', json(usage));
    await zip.add('account/ai-settings.json', json(aiSettings));
    await zip.add('account/notion.json', json(parts.notion));
    await zip.add('account/feedback.json', json(feedback));
    const screenshotNames = uniqueNames();
    for (const item of feedback.filter((sent) => sent.hasScreenshot)) {
      const bytes = await account.feedbackScreenshot(item.id).catch((error: unknown) => {
        // Gone since the list was read (the feedback erased meanwhile): left out.
        if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
        throw error;
      });
      if (!bytes) continue;
      const name = `${item.createdAt.slice(0, 10)} ${item.kind}`;
      await zip.add(`feedback/${screenshotNames(name, `.${sniffImage(bytes) ?? 'bin'}`)}`, bytes, {
        compress: false,
        mtime: new Date(item.createdAt),
      });
    }

    const chatNames = uniqueNames();
    let chats = firstChats;
    for (let page = 1; ; page += 1) {
      for (const summary of chats.items) {
        const chat = await account.chat(summary.id);
        const day = chat.createdAt.slice(0, 10);
        await zip.add(
          `chats/${chatNames(`${day} ${safeBaseName(chat.title)}`, '.json')}`,
          json(chat),
        );
      }
      if (page * CHATS_PAGE >= chats.total || chats.items.length === 0) break;
      chats = await account.chats(page + 1);
    }

    // The notes as "export everything" writes them, under notes/; the captured files they name
    // are noted on the way (a few per user) and written after.
    const captured: { note: NoteToExport; name: string; originalName: string }[] = [];
    const watched: AsyncIterator<{ notes: NoteToExport[] }> = {
      next: async () => {
        const page = await pages.next();
        if (!page.done) {
          for (const note of page.value.notes) {
            if (note.captureFile) captured.push({ note, ...note.captureFile });
          }
        }
        return page;
      },
    };
    const notesZip: ZipWriter = {
      ...zip,
      add: (name, ...rest) => zip.add(`notes/${name}`, ...rest),
    };
    const notes = await exportEverything(ctx, userId, watched, notesZip);

    const fileNames = uniqueNames();
    for (const { note, name, originalName } of captured) {
      const bytes = await account.file(note.id, name).catch((error: unknown) => {
        // A file gone since the scan (the note deleted meanwhile) is left out.
        if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
        throw error;
      });
      if (!bytes) continue;
      const dot = originalName.lastIndexOf('.');
      const extension = dot > 0 ? originalName.slice(dot).toLowerCase() : '';
      const base = safeBaseName(note.title || originalName.slice(0, dot > 0 ? dot : undefined));
      // Recordings and PDFs are compressed already.
      await zip.add(`files/${fileNames(base, extension)}`, bytes, {
        compress: false,
        mtime: note.createdAt,
      });
    }
    return notes;
  };
};
