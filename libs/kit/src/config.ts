import type * as z from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses a service's configuration from the environment. A missing or malformed variable
 * fails with one line naming it, which `noted` prints before exiting with status 1.
 */
export const parseConfig = <T extends z.ZodType>(
  schema: T,
  env: Record<string, string | undefined>,
): z.infer<T> => {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const variable = first?.path.join('.') || '(environment)';
  const given = first && first.path.length > 0 ? env[String(first.path[0])] : undefined;
  throw new ConfigError(
    `invalid configuration: ${variable}: ${first?.message ?? 'invalid'}` +
      (given === undefined ? ' (not set)' : ` (got ${JSON.stringify(given)})`),
  );
};
