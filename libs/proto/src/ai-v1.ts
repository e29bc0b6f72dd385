export * from './gen/noted/ai/v1/ai_pb.js';
