import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import type { oas31, ZodOpenApiPathsObject } from 'zod-openapi';
import { commonErrors, documentedPath, type Contract, type ErrorAnswer } from './contract.js';
import { errorCodes } from './errors.js';
import { JSON_BODY_MAX_BYTES } from './notes.js';
import { routeEntries } from './routes.js';

const ErrorResponse = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorCodes) as [keyof typeof errorCodes]),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });

const describeStatus = (status: number) =>
  ({
    400: 'The input is not what the schema takes (code VALIDATION_FAILED or BAD_REQUEST)',
    401: 'No valid access token (code UNAUTHENTICATED)',
    403: 'Not allowed (code FORBIDDEN)',
    404: 'No such object for this user (code NOT_FOUND)',
    409: 'Changed meanwhile, so nothing was saved (code CONFLICT)',
    413: 'The body is larger than the route takes (code PAYLOAD_TOO_LARGE)',
    415: 'The body is of a type the route does not take (code UNSUPPORTED_MEDIA_TYPE)',
    422:
      'The input fits the schema, but a rule of its content or of what is stored refuses it ' +
      '(code UNPROCESSABLE, or the one the route names)',
    426: 'Not a WebSocket upgrade (code UPGRADE_REQUIRED)',
    429: 'Too many requests: wait as long as Retry-After says (code RATE_LIMITED)',
    501: 'The feature needs a language model and none is configured (code AI_MODEL_REQUIRED)',
    502: 'The AI provider failed after retries (code AI_PROVIDER_FAILED)',
  })[status] ?? `Error ${status}`;

const errorResponses = (route: Contract) => {
  const answers: ErrorAnswer[] = [...commonErrors(route), ...(route.errors ?? [])];
  return Object.fromEntries(
    answers.map((answer) => {
      const [status, description] =
        typeof answer === 'number' ? [answer, describeStatus(answer)] : answer;
      return [String(status), { description, ...json(ErrorResponse) }];
    }),
  );
};

const answerResponse = ({ answer }: Contract) => {
  const status = String(answer.status);
  switch (answer.kind) {
    case 'json':
      return { [status]: { description: answer.description, ...json(answer.schema) } };
    case 'empty':
      return { [status]: { description: answer.description } };
    case 'events':
      return {
        [status]: {
          description: `${answer.description}; server-sent events, ending with done or error`,
          content: { 'text/event-stream': { schema: serverSentEvent(answer.schema) } },
        },
      };
    case 'upgrade':
      return {
        [status]: {
          description: `${answer.description}; then each frame from the server is one message`,
          'x-websocket-message': inlined(
            z.toJSONSchema(answer.schema, { target: 'draft-2020-12', io: 'output' }),
          ),
        },
      };
    case 'file':
      return {
        [status]: {
          description: answer.description,
          content: Object.fromEntries(
            answer.mediaTypes.map((mediaType) => [
              mediaType,
              { schema: z.string().meta({ format: 'binary' }) },
            ]),
          ),
          ...(answer.headers ? { headers: answer.headers } : {}),
        },
      };
  }
};

/**
 * One server-sent event as a client reads it: `event` names the type, `data` is the JSON of
 * one `schema` (its JSON Schema under `contentSchema`).
 */
/** A JSON Schema with its `$defs` references replaced by what they name (none are cyclic). */
const inlined = (schema: Record<string, unknown>): unknown => {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const { $ref, $defs: _defs, $schema: _schema, ...rest } = value as Record<string, unknown>;
    if (typeof $ref === 'string' && $ref.startsWith('#/$defs/')) {
      return walk(defs[$ref.slice('#/$defs/'.length)]);
    }
    return Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, walk(item)]));
  };
  return walk(schema);
};

const serverSentEvents = new Map<z.ZodType, z.ZodType>();
const serverSentEvent = (schema: z.ZodType) => {
  const known = serverSentEvents.get(schema);
  if (known) return known;
  const event = z
    .object({
      event: z.string().meta({ description: 'The type of the event in data' }),
      data: z.string().meta({
        description: 'One event as JSON',
        contentMediaType: 'application/json',
        contentSchema: inlined(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' })),
      }),
      id: z.string().optional(),
      retry: z.number().int().optional(),
    })
    .meta({ id: `${String(schema.meta()?.id ?? 'Event')}Sse` });
  serverSentEvents.set(schema, event);
  return event;
};

const security = (route: Contract): Record<string, string[]>[] | undefined => {
  if (route.signature) return [{ [route.signature.scheme]: [] }];
  if (route.public) return undefined;
  return route.auth === 'optional' ? [{ keycloak: [] }, {}] : [{ keycloak: [] }];
};

/** The signatures routes are authenticated by, as API-key schemes in their headers. */
const signatureSchemes = () =>
  Object.fromEntries(
    routeEntries.flatMap(([, { signature }]) =>
      signature
        ? [
            [
              signature.scheme,
              {
                type: 'apiKey' as const,
                in: 'header' as const,
                name: signature.header,
                description: signature.description,
              },
            ],
          ]
        : [],
    ),
  );

const operation = (operationId: string, route: Contract): ZodOpenApiOperationObject => ({
  operationId,
  summary: route.summary,
  tags: [route.tag],
  ...(security(route) ? { security: security(route) } : {}),
  ...(route.params || route.query
    ? {
        requestParams: {
          ...(route.params ? { path: route.params as z.ZodObject } : {}),
          ...(route.query ? { query: route.query as z.ZodObject } : {}),
        },
      }
    : {}),
  ...(route.body || route.form
    ? {
        requestBody: {
          required: true,
          content: {
            ...(route.body ? { 'application/json': { schema: route.body } } : {}),
            ...(route.form ? { 'multipart/form-data': { schema: route.form } } : {}),
          },
        },
      }
    : {}),
  responses: { ...answerResponse(route), ...errorResponses(route) },
});

/** The OpenAPI 3.1 document of the public API, a fold over its route contracts. */
export const openApiDocument = (serverUrl: string): oas31.OpenAPIObject => {
  const paths: ZodOpenApiPathsObject = {};
  for (const [operationId, route] of routeEntries) {
    const path = documentedPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation(operationId, route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Noted API',
      version: '1.0.0',
      description:
        'The public API of Noted. Every call but the public ones needs a Keycloak access token ' +
        '(`Authorization: Bearer ...`). Errors answer `{ "error": { "code", "message" } }`. ' +
        'No text may hold U+0000 (NUL): it is refused with 400 VALIDATION_FAILED. Limits on ' +
        `text are in characters; a JSON body may take ${JSON_BODY_MAX_BYTES.toLocaleString('en')} ` +
        'bytes, so text within its limits always fits (a larger body answers 413). Every ' +
        'route may answer 429 RATE_LIMITED with Retry-After.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        keycloak: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        ...signatureSchemes(),
      },
    },
    paths,
  });
};
