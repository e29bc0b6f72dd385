export * from './gen/noted/billing/v1/billing_pb.js';
export * from './gen/noted/billing/v1/events_pb.js';
