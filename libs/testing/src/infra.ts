/**
 * Where a suite finds real infrastructure (Postgres, NATS, MinIO, ...). Without its variable
 * the suite is skipped with a visible reason on a developer's machine; CI sets
 * NOTED_REQUIRE_INFRA=1, which turns a missing variable into a failure instead of a skip.
 */
export const infraUrl = (name: string, envVar: string): string | undefined => {
  const value = process.env[envVar];
  if (value) return value;
  if (process.env.NOTED_REQUIRE_INFRA === '1') {
    throw new Error(`${name} is required (NOTED_REQUIRE_INFRA=1) but ${envVar} is not set`);
  }
  return undefined;
};
