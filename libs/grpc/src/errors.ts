import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import * as z from 'zod';
import { AppError, errorCodes, type ErrorCode } from '@noted/api';
import { toAppError } from '@noted/kit';

/** Trailing metadata key that carries the stable `AppError` code across a gRPC call. */
export const ERROR_CODE_KEY = 'noted-error-code';

export const INTERNAL_MESSAGE = 'Something went wrong on our side';

/** The one place an `AppError` code becomes a gRPC status; a new code must choose one here. */
const statusOfCode: Record<ErrorCode, status> = {
  BAD_REQUEST: status.INVALID_ARGUMENT,
  VALIDATION_FAILED: status.INVALID_ARGUMENT,
  UNPROCESSABLE: status.FAILED_PRECONDITION,
  NOT_AN_IMAGE: status.INVALID_ARGUMENT,
  NOT_AUDIO: status.INVALID_ARGUMENT,
  NOT_A_PDF: status.INVALID_ARGUMENT,
  RECORDING_TOO_LONG: status.INVALID_ARGUMENT,
  URL_REFUSED: status.INVALID_ARGUMENT,
  NOTION_TOKEN_INVALID: status.INVALID_ARGUMENT,
  NOT_CONNECTED: status.FAILED_PRECONDITION,
  IMPORT_UNSUPPORTED: status.INVALID_ARGUMENT,
  ZIP_INVALID: status.INVALID_ARGUMENT,
  IMPORT_EMPTY: status.FAILED_PRECONDITION,
  IMPORT_TOO_LARGE: status.RESOURCE_EXHAUSTED,
  IMPORT_TOO_COMPLEX: status.FAILED_PRECONDITION,
  NOTE_TOO_COMPLEX: status.FAILED_PRECONDITION,
  NO_TEXT_FOUND: status.FAILED_PRECONDITION,
  UPGRADE_REQUIRED: status.FAILED_PRECONDITION,
  FETCH_FAILED: status.UNAVAILABLE,
  FETCH_TIMEOUT: status.DEADLINE_EXCEEDED,
  UNSUPPORTED_MEDIA_TYPE: status.INVALID_ARGUMENT,
  PAYLOAD_TOO_LARGE: status.RESOURCE_EXHAUSTED,
  RATE_LIMITED: status.RESOURCE_EXHAUSTED,
  CONFIRMATION_MISMATCH: status.INVALID_ARGUMENT,
  UNAUTHENTICATED: status.UNAUTHENTICATED,
  ACCOUNT_DELETED: status.UNAUTHENTICATED,
  FORBIDDEN: status.PERMISSION_DENIED,
  NOTES_LEFT_NOT_ENOUGH: status.PERMISSION_DENIED,
  PLAN_REQUIRED: status.PERMISSION_DENIED,
  AI_EXCLUDED: status.PERMISSION_DENIED,
  AI_MODEL_REQUIRED: status.UNIMPLEMENTED,
  AI_PROVIDER_FAILED: status.UNAVAILABLE,
  NOT_FOUND: status.NOT_FOUND,
  METHOD_NOT_ALLOWED: status.UNIMPLEMENTED,
  CONFLICT: status.ALREADY_EXISTS,
  TIMEOUT: status.DEADLINE_EXCEEDED,
  UNAVAILABLE: status.UNAVAILABLE,
  BUSY: status.UNAVAILABLE,
  UPSTREAM_UNAVAILABLE: status.UNAVAILABLE,
  PAYMENTS_DISABLED: status.FAILED_PRECONDITION,
  INTERNAL: status.INTERNAL,
};

/** What a caller sees when the server sent no `noted-error-code` (grpc-js or a proxy failed). */
const codeOfStatus: Partial<Record<status, ErrorCode>> = {
  [status.INVALID_ARGUMENT]: 'BAD_REQUEST',
  [status.OUT_OF_RANGE]: 'BAD_REQUEST',
  [status.UNAUTHENTICATED]: 'UNAUTHENTICATED',
  [status.PERMISSION_DENIED]: 'FORBIDDEN',
  [status.NOT_FOUND]: 'NOT_FOUND',
  [status.ALREADY_EXISTS]: 'CONFLICT',
  [status.ABORTED]: 'CONFLICT',
  [status.RESOURCE_EXHAUSTED]: 'RATE_LIMITED',
  [status.DEADLINE_EXCEEDED]: 'TIMEOUT',
  [status.UNAVAILABLE]: 'UNAVAILABLE',
  [status.CANCELLED]: 'UNAVAILABLE',
};

export const statusName = (code: status): string => status[code] ?? String(code);

const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(errorCodes, value);

/**
 * Turns what a handler threw into the status the caller receives. `internal` is true when
 * the error is ours (a bug or an outage) and must be logged rather than shown.
 */
export const toStatus = (error: unknown): { status: Partial<StatusObject>; internal: boolean } => {
  // Invalid input (a zod error) is the caller's fault, as over HTTP; anything else unknown is ours.
  const appError =
    error instanceof z.ZodError ? toAppError(error) : error instanceof AppError ? error : undefined;
  const code = appError && appError.code !== 'INTERNAL' ? appError.code : undefined;
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_KEY, code ?? 'INTERNAL');
  if (!appError || !code) {
    return {
      status: { code: status.INTERNAL, details: INTERNAL_MESSAGE, metadata },
      internal: true,
    };
  }
  return {
    status: { code: statusOfCode[code], details: appError.message, metadata },
    internal: false,
  };
};

/** Rebuilds the `AppError` a failed call stands for, on the calling side. */
export const fromServiceError = (error: ServiceError, method: string): AppError => {
  const sent = error.metadata?.get(ERROR_CODE_KEY)[0];
  if (isErrorCode(sent)) return new AppError(sent, error.details || INTERNAL_MESSAGE);
  const code = codeOfStatus[error.code] ?? 'INTERNAL';
  const message =
    code === 'TIMEOUT'
      ? `${method} did not answer in time`
      : code === 'UNAVAILABLE'
        ? `${method} is unavailable: ${error.details}`
        : error.details || INTERNAL_MESSAGE;
  return new AppError(code, message);
};
