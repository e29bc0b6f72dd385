export * from './gen/noted/users/v1/users_pb.js';
export * from './gen/noted/users/v1/events_pb.js';
