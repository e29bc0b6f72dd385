import type { FeedbackItem, FeedbackReceipt } from '@noted/api';
import type { FeedbackListed, FeedbackRow } from './repository.js';

export const presentReceipt = (row: FeedbackRow): FeedbackReceipt => ({
  id: row.id,
  createdAt: row.created_at.toISOString(),
});

export const presentFeedback = (row: FeedbackListed): FeedbackItem => ({
  id: row.id,
  kind: row.kind,
  message: row.message,
  email: row.email,
  userId: row.user_id,
  page: row.page,
  hasScreenshot: row.has_screenshot,
  ...(row.user_agent ? { userAgent: row.user_agent } : {}),
  createdAt: row.created_at.toISOString(),
});
