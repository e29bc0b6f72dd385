/**
 * Stable error codes that cross a service boundary. Clients branch on `code`, people read
 * `message`; the HTTP status travels with the code so every transport maps it the same way.
 */
export const errorCodes = {
  /** A request the API's document refuses (its syntax, a missing part). */
  BAD_REQUEST: 400,
  /** Input against the schema the document states for the route; the message names where. */
  VALIDATION_FAILED: 400,
  /**
   * Input the schema allows, refused by a rule of content or state the schema cannot state: a
   * date after now, a time zone the tz database does not name, an image over 40 megapixels, a
   * note already holding its 100 images. The message names the rule.
   */
  UNPROCESSABLE: 422,
  /** Content, not shape: bytes the schema allows that are none of the image formats taken. */
  NOT_AN_IMAGE: 422,
  /** The content is none of the audio formats taken (webm/opus, ogg, mp3, m4a, wav). */
  NOT_AUDIO: 422,
  NOT_A_PDF: 422,
  /** A recording longer than the plan's recordingTimeLimit. */
  RECORDING_TOO_LONG: 422,
  /** A URL the server will not fetch: not http(s), or a private, loopback or metadata address. */
  URL_REFUSED: 400,
  /** Notion refused the integration token given (or since revoked): connect Notion again. */
  NOTION_TOKEN_INVALID: 422,
  /** An import of a file that is neither Markdown (.md, .markdown, .txt) nor a .zip. */
  IMPORT_UNSUPPORTED: 422,
  /** A .zip that cannot be read: not a zip, damaged, or an entry cut short. */
  ZIP_INVALID: 422,
  /** A request to delete the account whose `confirm` is not the account's email address. */
  CONFIRMATION_MISMATCH: 422,
  UNAUTHENTICATED: 401,
  /** The token's account was deleted (the token was issued before); sign in again. */
  ACCOUNT_DELETED: 401,
  FORBIDDEN: 403,
  NOTES_LEFT_NOT_ENOUGH: 403,
  /** The feature is not part of the user's plan (details.feature names the entitlement). */
  PLAN_REQUIRED: 403,
  /** The note has a tag its owner excluded from AI: it is never sent to a provider. */
  AI_EXCLUDED: 403,
  /**
   * This server takes no payments (Stripe is not configured): there is no checkout, plan or
   * portal here, and every account has every feature. A 4xx: nothing to retry.
   */
  PAYMENTS_DISABLED: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** The connection the route acts on (Notion) is not made. */
  NOT_CONNECTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  /**
   * An import's archive holds more than is read: too many entries, too many bytes inflated, or
   * a file inflating far past its compressed size (`details.reason` says which).
   */
  IMPORT_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The content was read but holds no text to make a note of (a scanned PDF, a blank image). */
  NO_TEXT_FOUND: 422,
  /** An import whose file holds no note (no Markdown file, or none that can be a note). */
  IMPORT_EMPTY: 422,
  /** An import whose reading ran past its time or memory (a file built to be costly to parse). */
  IMPORT_TOO_COMPLEX: 422,
  /** A note whose layout as a PDF or image runs past its time or memory: export it as Markdown. */
  NOTE_TOO_COMPLEX: 422,
  /** A WebSocket endpoint asked without an upgrade. */
  UPGRADE_REQUIRED: 426,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** The feature needs a language model and none is configured; nothing is made up instead. */
  AI_MODEL_REQUIRED: 501,
  UPSTREAM_UNAVAILABLE: 502,
  /** A page or file at a user's URL could not be fetched (refused, too large, wrong type). */
  FETCH_FAILED: 502,
  /** A page or file at a user's URL did not arrive in full within its deadline. */
  FETCH_TIMEOUT: 504,
  /** The AI provider failed or refused, after retries. */
  AI_PROVIDER_FAILED: 502,
  UNAVAILABLE: 503,
  /**
   * Work of this kind (reading a file, decoding an image) is at capacity: refused at once rather
   * than left waiting; `details.retryAfterSeconds`, also sent as Retry-After, says when to try.
   */
  BUSY: 503,
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorCodes[code];
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export const isErrorBody = (value: unknown): value is ErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  'error' in value &&
  typeof (value as ErrorBody).error?.code === 'string';
