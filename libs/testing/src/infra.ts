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

/** MinIO (or any S3) for the suites, from TEST_S3_ENDPOINT and its keys; as `infraUrl` without it. */
export const infraS3 = ():
  { endpoint: string; accessKey: string; secretKey: string } | undefined => {
  const endpoint = infraUrl('MinIO', 'TEST_S3_ENDPOINT');
  if (!endpoint) return undefined;
  return {
    endpoint,
    accessKey: process.env.TEST_S3_ACCESS_KEY ?? 'minioadmin',
    secretKey: process.env.TEST_S3_SECRET_KEY ?? 'minioadmin',
  };
};
