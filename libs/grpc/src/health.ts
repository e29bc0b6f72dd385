import {
  Client,
  Metadata,
  credentials as channelCredentials,
  status,
  type ChannelCredentials,
} from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { fromServiceError } from './errors.js';

export type HealthStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'SERVICE_UNKNOWN';

export interface CheckHealthOptions {
  deadlineMs?: number;
  credentials?: ChannelCredentials;
}

const check = healthService['Check'];

/**
 * Asks a server's `grpc.health.v1.Health/Check` for a service (`''` is the whole server).
 * A service the server does not know answers SERVICE_UNKNOWN; an unreachable server rejects
 * with an `AppError` (UNAVAILABLE or TIMEOUT). One call on one connection (pick_first): a name
 * that resolves to several servers has the first that answers checked, unlike the balanced
 * clients of `createGrpcClient`.
 */
export const checkHealth = (
  address: string,
  service = '',
  options: CheckHealthOptions = {},
): Promise<HealthStatus> => {
  if (!check) throw new Error('grpc-health-check no longer exports the Check method');
  const client = new Client(address, options.credentials ?? channelCredentials.createInsecure());
  const deadline = new Date(Date.now() + (options.deadlineMs ?? 1_000));
  return new Promise<HealthStatus>((resolve, reject) => {
    client.makeUnaryRequest(
      check.path,
      check.requestSerialize,
      (bytes: Buffer): unknown => check.responseDeserialize(bytes),
      { service },
      new Metadata(),
      { deadline },
      (error, response) => {
        client.close();
        if (error?.code === status.NOT_FOUND) return resolve('SERVICE_UNKNOWN');
        if (error) return reject(fromServiceError(error, check.path));
        resolve(readStatus(response));
      },
    );
  });
};

const readStatus = (response: unknown): HealthStatus => {
  const value =
    typeof response === 'object' && response !== null && 'status' in response
      ? response.status
      : undefined;
  return value === 'SERVING' || value === 'NOT_SERVING' || value === 'SERVICE_UNKNOWN'
    ? value
    : 'UNKNOWN';
};
