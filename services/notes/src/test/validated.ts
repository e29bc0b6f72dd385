import {
  NoteCreate,
  NoteGraphQuery,
  NoteIdParams,
  NoteLinkAction,
  NoteListQuery,
  NoteUpdate,
  ReviewDueQuery,
  ReviewMark,
  ReviewUserParams,
  TodoParams,
  TodoRecentQuery,
  TodoSet,
} from '@noted/api';
import * as links from '../links/usecases.js';
import * as notes from '../notes/usecases.js';
import * as review from '../review/usecases.js';
import * as todos from '../todos/usecases.js';
import type { NotesContext, ReviewContext } from '../context.js';

/**
 * The use-cases as a route calls them: with input its contract has validated (the same
 * schemas, so bad input throws a ZodError here as it answers 400 there). Tests send plain
 * objects through these.
 */
type Ctx = Parameters<typeof notes.noteUpdate>[0];

export const noteCreate = async (ctx: NotesContext, userId: string, input: unknown) =>
  notes.noteCreate(ctx, userId, NoteCreate.parse(input));
export const noteUpdate = async (ctx: Ctx, userId: string, id: string, input: unknown) =>
  notes.noteUpdate(ctx, userId, id, NoteUpdate.parse(input));
export const notePage = async (ctx: NotesContext, userId: string, query: unknown) =>
  notes.notePage(ctx, userId, NoteListQuery.parse(query));

export const noteLinksGet = async (ctx: NotesContext, userId: string, params: unknown) =>
  links.noteLinksGet(ctx, userId, NoteIdParams.parse(params));
export const noteLinkAdd = async (ctx: NotesContext, userId: string, input: unknown) =>
  links.noteLinkAdd(ctx, userId, NoteLinkAction.parse(input));
export const noteLinkRemove = async (ctx: NotesContext, userId: string, input: unknown) =>
  links.noteLinkRemove(ctx, userId, NoteLinkAction.parse(input));
export const noteGraph = async (ctx: NotesContext, userId: string, query: unknown) =>
  links.noteGraph(ctx, userId, NoteGraphQuery.parse(query));

export const reviewDue = async (ctx: ReviewContext, userId: string, query: unknown, now?: Date) =>
  review.reviewDue(ctx, userId, ReviewDueQuery.parse(query), now);
export const reviewDueOf = async (
  ctx: ReviewContext,
  callerId: string,
  params: unknown,
  query: unknown,
  now?: Date,
) =>
  review.reviewDueOf(
    ctx,
    callerId,
    ReviewUserParams.parse(params),
    ReviewDueQuery.parse(query),
    now,
  );
export const reviewMark = async (ctx: NotesContext, userId: string, input: unknown, now?: Date) =>
  review.reviewMark(ctx, userId, ReviewMark.parse(input), now);

export const todosRecent = async (ctx: NotesContext, userId: string, query: unknown) =>
  todos.todosRecent(ctx, userId, TodoRecentQuery.parse(query));
export const todoSet = async (ctx: NotesContext, userId: string, params: unknown, input: unknown) =>
  todos.todoSet(ctx, userId, TodoParams.parse(params), TodoSet.parse(input));
