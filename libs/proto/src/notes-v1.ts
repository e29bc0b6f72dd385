export * from './gen/noted/notes/v1/notes_pb.js';
export * from './gen/noted/notes/v1/events_pb.js';
