export * from './gen/noted/users/v1/users_pb.js';
